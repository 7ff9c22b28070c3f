// The prompts: typing, pasting (text with its Enter in one piece), masking, confirming.
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Choose, Confirm, Field, LoginForm } from './Prompts.js';

afterEach(() => cleanup());
const tick = () => new Promise((r) => setTimeout(r, 20));
/** Retries an assertion until it holds (renders and input are asynchronous), for up to `ms`. */
async function eventually(assertion: () => void, ms = 2000) {
  for (let waited = 0; ; waited += 20) {
    try {
      return assertion();
    } catch (err) {
      if (waited > ms) throw err;
      await tick();
    }
  }
}

/**
 * Types into a field that has just appeared. Ink drops input that arrives before the field's input
 * handler is attached (an effect after the first render, late on a loaded machine; a person never
 * types that fast): when nothing shows, the keys were dropped, so type them again.
 */
async function type(stdin: { write(s: string): void }, text: string, shown: () => void) {
  stdin.write(text);
  try {
    await eventually(shown, 500);
  } catch {
    stdin.write(text);
    await eventually(shown);
  }
}

describe('LoginForm', () => {
  it('asks for the email, then the password (masked), and submits both', async () => {
    const onSubmit = vi.fn();
    const { stdin, lastFrame } = render(<LoginForm server="http://127.0.0.1:3000" onSubmit={onSubmit} />);
    await eventually(() => expect(lastFrame()).toBe('Sign in to http://127.0.0.1:3000\nEmail: you@company.com'));
    await type(stdin, 'ann@acme.com', () => expect(lastFrame()).toContain('Email: ann@acme.com'));
    stdin.write('\r');
    await eventually(() => expect(lastFrame()).toBe('Sign in to http://127.0.0.1:3000\nEmail: ann@acme.com\nPassword:'));
    await type(stdin, 's3cret', () => expect(lastFrame()).toContain('Password: ******'));
    expect(lastFrame()).not.toContain('s3cret');
    stdin.write('\r');
    await eventually(() => expect(onSubmit).toHaveBeenCalledWith({ email: 'ann@acme.com', password: 's3cret' }));
  });

  it('skips the email when it was given', async () => {
    const { lastFrame } = render(<LoginForm server="http://x" email="ann@acme.com" onSubmit={() => {}} />);
    await eventually(() => expect(lastFrame()).toBe('Sign in to http://x\nEmail: ann@acme.com\nPassword:'));
  });
});

describe('Field', () => {
  it('takes a pasted value that ends with Enter as a submitted value, not as text', async () => {
    const onSubmit = vi.fn();
    const { stdin, lastFrame } = render(<Field label="Password:" mask onSubmit={onSubmit} />);
    await type(stdin, 'x', () => expect(lastFrame()).toBe('Password: *'));
    stdin.write('\x7f');
    stdin.write('pasted-pw\r');
    await eventually(() => expect(onSubmit).toHaveBeenCalledWith('pasted-pw'));
  });

  it('does not submit an empty value, and erases with backspace', async () => {
    const onSubmit = vi.fn();
    const { stdin, lastFrame } = render(<Field label="Email:" onSubmit={onSubmit} />);
    await type(stdin, 'abx', () => expect(lastFrame()).toBe('Email: abx'));
    stdin.write('\x7f');
    await eventually(() => expect(lastFrame()).toBe('Email: ab'));
    stdin.write('\r');
    await eventually(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith('ab');
    // An empty value is not submitted.
    const empty = vi.fn();
    const other = render(<Field label="Email:" onSubmit={empty} />);
    await type(other.stdin, 'a', () => expect(other.lastFrame()).toBe('Email: a'));
    other.stdin.write('\x7f');
    other.stdin.write('\r');
    await tick();
    expect(empty).not.toHaveBeenCalled();
  });
});

describe('Confirm', () => {
  it('shows the question and the detail, and answers with y or n', async () => {
    const onAnswer = vi.fn();
    const { stdin, lastFrame } = render(<Confirm question="Are you sure you want to delete this segment?" detail="leads in Canada" onAnswer={onAnswer} />);
    await eventually(() => expect(lastFrame()).toBe('leads in Canada\nAre you sure you want to delete this segment? y/N'));
    await type(stdin, 'y', () => expect(onAnswer).toHaveBeenCalledWith(true));
  });
});

describe('Choose', () => {
  it('shows what the assistant asks and picks a choice with the arrow keys and Enter', async () => {
    const onAnswer = vi.fn();
    const { stdin, lastFrame } = render(
      <Choose title="I understood: Leads · in Canada" lines={['I didn\'t understand "pink hats".']} options={['Search with what I understood', 'Cancel']} onAnswer={onAnswer} />,
    );
    await eventually(() => expect(lastFrame()).toContain('Search with what I understood'));
    expect(lastFrame()).toContain('I understood: Leads · in Canada');
    expect(lastFrame()).toContain('I didn\'t understand "pink hats".');
    // the handler attaches after the first render: press until the highlight moves
    for (let i = 0; i < 20 && !/❯ Cancel|› Cancel/.test(lastFrame() ?? ''); i++) {
      stdin.write('\u001B[B');
      await tick();
    }
    stdin.write('\r');
    await eventually(() => expect(onAnswer).toHaveBeenCalledWith(1));
  });
});
