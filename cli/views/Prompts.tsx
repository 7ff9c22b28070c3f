// Questions asked in a terminal (never without one: commands then need flags or stdin instead).
// Text fields are our own small component: @inkjs/ui's TextInput takes a pasted "text + Enter" as
// one piece of text (the Enter becomes part of the value), and a pasted password often ends so.
import { ConfirmInput, Select } from '@inkjs/ui';
import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';

/** One line of input; Enter submits (also inside pasted text), Ctrl-C is left to Ink (cancels). */
export function Field({ label, placeholder, mask, onSubmit }: { label: string; placeholder?: string; mask?: boolean; onSubmit: (value: string) => void }) {
  const [value, setValue] = useState('');
  // Keypresses can come faster than renders (a paste): keep the value in a ref as well.
  const current = useRef('');
  const done = useRef(false);
  useInput((input, key) => {
    if (done.current || key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow || key.escape) return;
    let next = current.current;
    if (key.backspace || key.delete) next = next.slice(0, -1);
    else {
      for (const ch of input) {
        if (ch === '\r' || ch === '\n') {
          if (next.trim()) {
            done.current = true;
            break;
          }
          continue;
        }
        next += ch;
      }
    }
    if (key.return && next.trim()) done.current = true;
    current.current = next;
    setValue(next);
    if (done.current) onSubmit(next);
  });
  const shown = mask ? '*'.repeat(value.length) : value;
  return (
    <Box gap={1}>
      <Text>{label}</Text>
      {shown ? <Text>{shown}</Text> : <Text dimColor>{placeholder ?? ''}</Text>}
    </Box>
  );
}

export function Confirm({ question, detail, onAnswer }: { question: string; detail?: string; onAnswer: (yes: boolean) => void }) {
  return (
    <Box flexDirection="column">
      {detail && <Text dimColor>{detail}</Text>}
      <Box gap={1}>
        <Text>{question}</Text>
        <ConfirmInput defaultChoice="cancel" onConfirm={() => onAnswer(true)} onCancel={() => onAnswer(false)} />
      </Box>
    </Box>
  );
}

/** Email (unless given) then password, for `crm login`. */
export function LoginForm({ server, email: given, onSubmit }: { server: string; email?: string; onSubmit: (c: { email: string; password: string }) => void }) {
  const [email, setEmail] = useState(given ?? '');
  const [step, setStep] = useState<'email' | 'password'>(given ? 'password' : 'email');
  return (
    <Box flexDirection="column">
      <Text>
        Sign in to <Text bold>{server}</Text>
      </Text>
      {step === 'email' ? (
        <Field
          label="Email:"
          placeholder="you@company.com"
          onSubmit={(v) => {
            setEmail(v.trim());
            setStep('password');
          }}
        />
      ) : (
        <Text>Email: {email}</Text>
      )}
      {step === 'password' && <Field key="password" label="Password:" mask onSubmit={(password) => onSubmit({ email, password })} />}
    </Box>
  );
}

/** One of several choices (arrow keys and Enter), for a question the assistant asks about. */
export function Choose({ title, lines, options, onAnswer }: { title: string; lines: readonly string[]; options: readonly string[]; onAnswer: (index: number) => void }) {
  return (
    <Box flexDirection="column">
      <Text>{title}</Text>
      {lines.map((l, i) => (
        <Text key={i} dimColor>
          {l}
        </Text>
      ))}
      <Select visibleOptionCount={Math.min(8, options.length)} options={options.map((label, i) => ({ label, value: String(i) }))} onChange={(v) => onAnswer(Number(v))} />
    </Box>
  );
}
