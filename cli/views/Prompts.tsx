// Questions asked in a terminal (never without one: commands then need flags or stdin instead).
import { ConfirmInput, PasswordInput, TextInput } from '@inkjs/ui';
import { Box, Text } from 'ink';
import { useState } from 'react';

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
      <Box gap={1}>
        <Text>Email:</Text>
        {step === 'email' ? (
          <TextInput
            placeholder="you@company.com"
            onSubmit={(v) => {
              if (!v.trim()) return;
              setEmail(v.trim());
              setStep('password');
            }}
          />
        ) : (
          <Text>{email}</Text>
        )}
      </Box>
      {step === 'password' && (
        <Box gap={1}>
          <Text>Password:</Text>
          <PasswordInput onSubmit={(password) => password && onSubmit({ email, password })} />
        </Box>
      )}
    </Box>
  );
}
