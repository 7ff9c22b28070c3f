// Where output goes. stdout carries only the result (a view rendered once, JSON or CSV); spinners,
// progress and notes go to stderr. Live views (Ink) are shown only when stderr is a terminal; without
// one (pipes, CI, tests) the same work reports plain, stable lines, and the result is rendered with
// the same Ink views at a fixed width, without colour (chalk follows the terminal, --no-color, NO_COLOR).
import { render, renderToString, type Instance } from 'ink';
import type { ReactElement } from 'react';
import { CliError, EXIT } from './errors.js';
import {
  ExportProgress, exportLine, GenerationProgressView, generationLine, ImportProgressView, importLine, UploadProgress, uploadLine, Working,
  type ExportState, type GenerationState, type ImportState, type UploadState,
} from './views/Live.js';
import { Choose, Confirm, Field, LoginForm } from './views/Prompts.js';
import { tsv, type Column } from './views/Table.js';

export interface Streams {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
}

/** Width of output that does not go to a terminal: fixed, so that it is the same everywhere. */
export const PLAIN_WIDTH = 100;

export interface Live<S> {
  update(state: S): void;
  /** Removes the live view (the result is printed afterwards). */
  end(): void;
}

export class Ui {
  constructor(readonly io: Streams) {}

  /** stdin and stderr are a terminal: prompts are possible. */
  get interactive(): boolean {
    return Boolean(this.io.stdin.isTTY && this.io.stderr.isTTY);
  }

  get liveViews(): boolean {
    return Boolean(this.io.stderr.isTTY);
  }

  /** stdout is not a terminal: tables are printed as TSV with full values (list()). */
  get piped(): boolean {
    return !this.io.stdout.isTTY;
  }

  width(): number {
    return this.io.stdout.isTTY && this.io.stdout.columns ? this.io.stdout.columns : PLAIN_WIDTH;
  }

  /** Renders a view once to stdout. */
  print(view: ReactElement): void {
    this.io.stdout.write(`${renderToString(view, { columns: this.width() })}\n`);
  }

  /** Renders a view once to stderr: what goes with data piped on stdout. */
  printNote(view: ReactElement): void {
    this.io.stderr.write(`${renderToString(view, { columns: this.io.stderr.columns || PLAIN_WIDTH })}\n`);
  }

  /**
   * A list: the view in a terminal; piped, only its table, as tab-separated values with a header
   * line and full values (whole ids, ISO dates, plain numbers), as gh does.
   */
  list<R>(view: ReactElement, table: { columns: readonly Column<R>[]; rows: readonly R[] }): void {
    if (this.piped) this.tsv(table.columns, table.rows);
    else this.print(view);
  }

  tsv<R>(columns: readonly Column<R>[], rows: readonly R[]): void {
    this.io.stdout.write(tsv(columns, rows));
  }

  json(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A line on stderr (what happened, next steps), so that stdout stays the result alone. */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  /**
   * A view on stderr that is redrawn, then removed. Ink's own clear() misses frames still waiting in
   * its render throttle (and then erases lines above it), so the view is unmounted first — which
   * writes its last frame — and that frame's lines are erased after.
   */
  private live(first: ReactElement): Live<ReactElement> {
    let last = first;
    let instance: Instance | null = render(first, { stdout: this.io.stderr, stderr: this.io.stderr, stdin: this.io.stdin, exitOnCtrlC: false, patchConsole: false });
    return {
      update: (view) => {
        last = view;
        instance?.rerender(view);
      },
      end: () => {
        if (!instance) return;
        instance.unmount();
        instance = null;
        const height = renderToString(last, { columns: this.io.stderr.columns || 80 }).split('\n').length;
        // From the first column: a ^C the terminal echoed may have moved the cursor.
        this.io.stderr.write(`\r\x1b[${height}A\x1b[0J`);
      },
    };
  }

  /** Runs `work` with a spinner on a terminal, silently otherwise. */
  async task<T>(label: string, work: () => Promise<T>): Promise<T> {
    if (!this.liveViews) return work();
    const spinner = this.live(<Working label={label} />);
    try {
      return await work();
    } finally {
      spinner.end();
    }
  }

  private progress<S>(view: (s: S) => ReactElement, line: (s: S) => string, step: (prev: S | null, next: S) => boolean): Live<S> {
    if (this.liveViews) {
      let shown: Live<ReactElement> | null = null;
      let ended = false;
      return {
        update: (s) => {
          if (ended) return;
          if (shown) shown.update(view(s));
          else shown = this.live(view(s));
        },
        end: () => {
          if (ended) return;
          ended = true;
          shown?.end();
        },
      };
    }
    let last: S | null = null;
    return {
      update: (s) => {
        if (step(last, s)) this.note(line(s));
        last = s;
      },
      end: () => {},
    };
  }

  /** Export progress: a bar on a terminal; otherwise a line at every tenth of the way and at the end. */
  exportProgress(): Live<ExportState> {
    const tenth = (s: ExportState) => Math.floor((10 * s.done) / Math.max(1, s.total, s.done));
    return this.progress(
      (s) => <ExportProgress state={s} />,
      exportLine,
      (prev, next) => prev === null || tenth(next) > tenth(prev) || (next.done >= next.total && prev.done < prev.total),
    );
  }

  /** Sending a file: a bar on a terminal; otherwise a line at every tenth of the way. */
  uploadProgress(): Live<UploadState> {
    const tenth = (s: UploadState) => Math.floor((10 * s.done) / Math.max(1, s.total));
    return this.progress((s) => <UploadProgress state={s} />, uploadLine, (prev, next) => prev === null || tenth(next) > tenth(prev));
  }

  /** An import of contacts: a bar on a terminal; otherwise a line at every tenth of the file. */
  importProgress(): Live<ImportState> {
    const tenth = (s: ImportState) => Math.floor(10 * s.progress);
    return this.progress((s) => <ImportProgressView state={s} />, (s) => `Importing ${s.file}: ${importLine(s)}`, (prev, next) => prev === null || tenth(next) > tenth(prev));
  }

  /** Generation progress: live counts on a terminal; otherwise a line per change. */
  generationProgress(): Live<GenerationState | null> {
    return this.progress(
      (s) => <GenerationProgressView state={s} />,
      (s) => (s ? generationLine(s) : 'Starting generation…'),
      (prev, next) => next !== null && (prev === null || generationLine(prev) !== generationLine(next)),
    );
  }

  /** Shows a prompt until it answers; Ctrl-C cancels (exit code 130). */
  private async prompt<T>(make: (answer: (value: T) => void) => ReactElement): Promise<T> {
    let answered: { value: T } | null = null;
    const instance = render(
      make((value) => {
        answered = { value };
        instance.unmount();
      }),
      { stdout: this.io.stderr, stderr: this.io.stderr, stdin: this.io.stdin, exitOnCtrlC: true, patchConsole: false },
    );
    await instance.waitUntilExit();
    if (!answered) throw new CliError('Cancelled: nothing was done', undefined, EXIT.cancelled);
    return (answered as { value: T }).value;
  }

  /**
   * Asks before something that cannot be undone. `yes` (--yes) answers for the user; without a
   * terminal and without --yes, nothing is asked and nothing is done.
   */
  async confirm(question: string, opts: { yes: boolean; detail?: string }): Promise<void> {
    if (opts.yes) return;
    if (!this.interactive) throw new CliError(`${question} Nothing was done`, 'Run it again with --yes to confirm without a prompt');
    const yes = await this.prompt<boolean>((answer) => <Confirm question={question} detail={opts.detail} onAnswer={answer} />);
    if (!yes) throw new CliError('Cancelled: nothing was done');
  }

  /** One of several choices picked in the terminal (interactive only); returns its index. */
  choose(title: string, lines: readonly string[], options: readonly string[]): Promise<number> {
    return this.prompt((answer) => <Choose title={title} lines={lines} options={options} onAnswer={answer} />);
  }

  /** Email and password typed in the terminal. */
  askLogin(server: string, email?: string): Promise<{ email: string; password: string }> {
    return this.prompt((answer) => <LoginForm server={server} email={email} onSubmit={answer} />);
  }

  /** A secret typed in the terminal (a token), shown as stars. */
  askSecret(label: string): Promise<string> {
    return this.prompt((answer) => <Field label={label} mask onSubmit={answer} />);
  }

  /** Everything on stdin (a password piped by a script), without its final line break. */
  async readStdin(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.io.stdin) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  }
}
