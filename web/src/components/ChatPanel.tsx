// The selected query's chat messages and the new-question input, disabled with "Processing your
// query..." while a query runs (spec §2, §4, §5: the text is trimmed; empty text is ignored). A question
// the assistant asks about (issue 23) is shown at the end of the conversation with its choices as buttons.
// An empty conversation offers example questions to click (issue 25): a click puts one in the box, focused,
// to edit before asking; while typing, the box suggests fields, stages and the user's CRM values.
import { Button, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Send20Filled } from '@fluentui/react-icons';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { ChatPanel_fields$key } from '../__generated__/ChatPanel_fields.graphql';
import type { ChatPanel_query$key } from '../__generated__/ChatPanel_query.graphql';
import type { ChatPanel_usage$key } from '../__generated__/ChatPanel_usage.graphql';
import { buildTerms } from '../../../client/completion.js';
import { exampleQuestions } from '../../../client/example-questions.js';
import { questionLimitNote } from '../../../client/usage.js';
import { useCrmVocabulary } from '../hooks/useCrmVocabulary';
import { ClarificationCard, type Clarification, type ClarificationAnswer } from './ClarificationCard';
import { QuestionInput } from './QuestionInput';

/**
 * The last question when it ran nothing: waiting for the user's choice (a clarification), or not understood at
 * all (`reply`: what the assistant can filter on). It stays in the conversation until the next question.
 */
export type PendingClarification = { question: string; clarification: Clarification } | { question: string; reply: string };

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', flexGrow: 1, minHeight: '280px' },
  messages: { flexGrow: 1, overflowY: 'auto', padding: tokens.spacingHorizontalM, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  bubble: { maxWidth: '90%', padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`, borderRadius: tokens.borderRadiusLarge, whiteSpace: 'pre-wrap', wordBreak: 'break-word' },
  user: { alignSelf: 'flex-end', backgroundColor: tokens.colorBrandBackground, color: tokens.colorNeutralForegroundOnBrand },
  assistant: { alignSelf: 'flex-start', backgroundColor: tokens.colorNeutralBackground3, color: tokens.colorNeutralForeground1 },
  welcome: { color: tokens.colorNeutralForeground2, padding: tokens.spacingHorizontalS },
  form: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end', padding: tokens.spacingHorizontalM, borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  input: { flexGrow: 1 },
  box: { borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  boxForm: { borderTop: 'none' },
  note: { display: 'block', padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM} 0`, color: tokens.colorNeutralForeground2 },
  noteLimit: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
  examples: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: tokens.spacingVerticalXS, padding: `0 ${tokens.spacingHorizontalS}` },
  examplesTitle: { color: tokens.colorNeutralForeground2, fontWeight: tokens.fontWeightSemibold },
  exampleList: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, listStyleType: 'none', margin: 0, padding: 0 },
  example: { textAlign: 'start', fontWeight: tokens.fontWeightRegular },
});

/** The spec's greeting, naming the user's CRM where it names HubSpot. */
export const welcome = (crmLabel = 'HubSpot') =>
  `Hi! I'm your CRM Assistant for ${crmLabel}. Ask me about your customers in plain language, for example: customers in Europe who bought in the last 30 days with lifetime value over $5k.`;

export function ChatPanel({
  query: key,
  fields: fieldsKey,
  busy,
  onAsk,
  pending,
  onAnswer,
  crmLabel,
  usage: usageKey,
  vocabularyKey,
}: {
  query: ChatPanel_query$key | null;
  fields: ChatPanel_fields$key;
  busy: boolean;
  /** resolves false when the question was refused (a daily limit, a failure): the box keeps it */
  onAsk: (text: string) => Promise<boolean> | void;
  pending: PendingClarification | null;
  onAnswer: (question: string, answer: ClarificationAnswer) => void;
  crmLabel?: string;
  /** Today's questions against the limit: the box says so before anything is typed, and closes at the limit. */
  usage: ChatPanel_usage$key;
  /** The CRM connection whose values the box suggests (null when no CRM is connected): one load per connection. */
  vocabularyKey: string | null;
}) {
  const s = useStyles();
  const usage = useFragment(
    graphql`
      fragment ChatPanel_usage on Usage {
        chatQueriesUsed
        chatQueryLimit
        resetsAt
        timeZone
      }
    `,
    usageKey,
  );
  const note = questionLimitNote(usage.chatQueriesUsed, usage.chatQueryLimit, usage.timeZone);
  const atLimit = note?.level === 'limit';
  const { segmentFields } = useFragment(
    graphql`
      fragment ChatPanel_fields on Query {
        segmentFields {
          field
          label
          kind
          operators
          options
          example
        }
      }
    `,
    fieldsKey,
  );
  const query = useFragment(
    graphql`
      fragment ChatPanel_query on CustomerQuery {
        id
        messages {
          id
          role
          content
        }
      }
    `,
    key,
  );
  const vocabulary = useCrmVocabulary(vocabularyKey);
  const terms = useMemo(() => buildTerms(segmentFields, vocabulary), [segmentFields, vocabulary]);
  const examples = useMemo(() => exampleQuestions(vocabulary), [vocabulary]);
  const [text, setText] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [query?.messages.length, pending]);

  function submit(e?: FormEvent) {
    e?.preventDefault();
    const question = text.trim();
    if (!question || busy || atLimit) return;
    // The question stays in the box (read-only, keeping the focus) until it is answered; a refused one
    // stays there to send again.
    void Promise.resolve(onAsk(question)).then((ok) => {
      if (ok !== false) setText((t) => (t.trim() === question ? '' : t));
    });
  }
  // an example goes into the box, focused with the caret at its end, to edit before asking
  function fillExample(example: string) {
    setText(example);
    requestAnimationFrame(() => {
      const el = box.current;
      if (!el) return;
      el.focus();
      el.setSelectionRange(example.length, example.length);
    });
  }

  return (
    <div className={s.root}>
      <div className={s.messages} role="log" aria-live="polite" aria-label="Conversation" tabIndex={0}>
        {!query && !pending ? (
          <>
            <Text className={s.welcome}>{welcome(crmLabel)}</Text>
            <div className={s.examples}>
              <Text id="example-questions" size={200} className={s.examplesTitle}>
                Try one of these
              </Text>
              <ul className={s.exampleList} aria-labelledby="example-questions">
                {examples.map((example) => (
                  <li key={example}>
                    <Button size="small" shape="circular" className={s.example} disabled={atLimit || busy} onClick={() => fillExample(example)}>
                      {example}
                    </Button>
                  </li>
                ))}
              </ul>
            </div>
          </>
        ) : (
          query?.messages.map((m) => (
            <div key={m.id} className={mergeClasses(s.bubble, m.role === 'user' ? s.user : s.assistant)}>
              {m.content}
            </div>
          ))
        )}
        {pending && (
          <>
            <div className={mergeClasses(s.bubble, s.user)}>{pending.question}</div>
            {'clarification' in pending ? (
              <ClarificationCard clarification={pending.clarification} fields={segmentFields} busy={busy} onAnswer={(a) => onAnswer(pending.question, a)} />
            ) : (
              <div className={mergeClasses(s.bubble, s.assistant)} data-testid="not-understood-reply">
                {pending.reply}
              </div>
            )}
          </>
        )}
        <div ref={end} />
      </div>
      <div className={s.box}>
        <Text id="question-limit" role="status" size={200} className={mergeClasses(s.note, atLimit && s.noteLimit)} title={atLimit ? `Resets ${new Date(usage.resetsAt as string).toLocaleString()} (your time)` : undefined}>
          {note ? note.text : ''}
        </Text>
        <form className={mergeClasses(s.form, s.boxForm)} onSubmit={submit} aria-label="Ask a question">
          <QuestionInput
            ref={box}
            className={s.input}
            resize="vertical"
            aria-label="Ask about your customers"
            aria-describedby={note ? 'question-limit' : undefined}
            placeholder={busy ? 'Processing your query...' : atLimit ? 'Daily question limit reached' : 'Ask about your customers…'}
            value={text}
            readOnly={busy}
            aria-busy={busy}
            disabled={atLimit && !busy}
            onValueChange={setText}
            onSubmit={submit}
            terms={terms}
            maxLength={1000}
          />
          <Button appearance="primary" type="submit" icon={<Send20Filled />} disabled={busy || atLimit || !text.trim()} aria-label="Send" />
        </form>
      </div>
    </div>
  );
}
