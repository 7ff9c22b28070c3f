// The prompts: typing, pasting (text with its Enter in one piece), masking, confirming.
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Confirm, Field, LoginForm } from './Prompts.js';

afterEach(() => cleanup());
const tick = () => new Promise((r) => setTimeout(r, 20));
/** Retries an assertion until it holds (renders and input are asynchronous), for up to 2 s. */
async function eventually(assertion: () => void) {
  for (let waited = 0; ; waited += 20) {
    try {
      return assertion();
    } catch (err) {
      if (waited > 2000) throw err;
      await tick();
    }
  }
}

describe('LoginForm', () => {
  it('asks for the email, then the password (masked), and submits both', async () => {
    const onSubmit = vi.fn();
    const { stdin, lastFrame } = render(<LoginForm server="http://127.0.0.1:3000" onSubmit={onSubmit} />);
    await eventually(() => expect(lastFrame()).toBe('Sign in to http://127.0.0.1:3000\nEmail: you@company.com'));
    stdin.write('ann@acme.com');
    await tick();
    stdin.write('\r');
    await eventually(() => expect(lastFrame()).toBe('Sign in to http://127.0.0.1:3000\nEmail: ann@acme.com\nPassword:'));
    stdin.write('s3cret');
    await eventually(() => expect(lastFrame()).toContain('Password: ******'));
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
    const { stdin } = render(<Field label="Password:" mask onSubmit={onSubmit} />);
    await tick();
    stdin.write('pasted-pw\r');
    await eventually(() => expect(onSubmit).toHaveBeenCalledWith('pasted-pw'));
  });

  it('does not submit an empty value, and erases with backspace', async () => {
    const onSubmit = vi.fn();
    const { stdin, lastFrame } = render(<Field label="Email:" onSubmit={onSubmit} />);
    await tick();
    stdin.write('\r');
    stdin.write('abx');
    await tick();
    stdin.write('\x7f');
    await eventually(() => expect(lastFrame()).toBe('Email: ab'));
    stdin.write('\r');
    await eventually(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith('ab');
  });
});

describe('Confirm', () => {
  it('shows the question and the detail, and answers with y or n', async () => {
    const onAnswer = vi.fn();
    const { stdin, lastFrame } = render(<Confirm question="Are you sure you want to delete this segment?" detail="leads in Canada" onAnswer={onAnswer} />);
    await eventually(() => expect(lastFrame()).toBe('leads in Canada\nAre you sure you want to delete this segment? y/N'));
    stdin.write('y');
    await eventually(() => expect(onAnswer).toHaveBeenCalledWith(true));
  });
});
