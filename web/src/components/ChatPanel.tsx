// The selected query's chat messages and the new-question input, disabled with "Processing your
// query..." while a query runs (spec §2, §4, §5: the text is trimmed; empty text is ignored).
import { Button, Text, Textarea, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Send20Filled } from '@fluentui/react-icons';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { ChatPanel_query$key } from '../__generated__/ChatPanel_query.graphql';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', flexGrow: 1, minHeight: '280px' },
  messages: { flexGrow: 1, overflowY: 'auto', padding: tokens.spacingHorizontalM, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  bubble: { maxWidth: '90%', padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`, borderRadius: tokens.borderRadiusLarge, whiteSpace: 'pre-wrap', wordBreak: 'break-word' },
  user: { alignSelf: 'flex-end', backgroundColor: tokens.colorBrandBackground, color: tokens.colorNeutralForegroundOnBrand },
  assistant: { alignSelf: 'flex-start', backgroundColor: tokens.colorNeutralBackground3, color: tokens.colorNeutralForeground1 },
  welcome: { color: tokens.colorNeutralForeground2, padding: tokens.spacingHorizontalS },
  form: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end', padding: tokens.spacingHorizontalM, borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  input: { flexGrow: 1 },
});

export const WELCOME =
  "Hi! I'm your CRM Assistant for HubSpot. Ask me about your customers in plain language, for example: customers in Europe who bought in the last 30 days with lifetime value over $5k.";

export function ChatPanel({ query: key, busy, onAsk }: { query: ChatPanel_query$key | null; busy: boolean; onAsk: (text: string) => void }) {
  const s = useStyles();
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
  const [text, setText] = useState('');
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [query?.messages.length]);

  function submit(e?: FormEvent) {
    e?.preventDefault();
    const question = text.trim();
    if (!question || busy) return;
    onAsk(question);
    setText('');
  }
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      submit();
    }
  };

  return (
    <div className={s.root}>
      <div className={s.messages} role="log" aria-live="polite" aria-label="Conversation" tabIndex={0}>
        {!query ? (
          <Text className={s.welcome}>{WELCOME}</Text>
        ) : (
          query.messages.map((m) => (
            <div key={m.id} className={mergeClasses(s.bubble, m.role === 'user' ? s.user : s.assistant)}>
              {m.content}
            </div>
          ))
        )}
        <div ref={end} />
      </div>
      <form className={s.form} onSubmit={submit} aria-label="Ask a question">
        <Textarea
          className={s.input}
          resize="vertical"
          aria-label="Ask about your customers"
          placeholder={busy ? 'Processing your query...' : 'Ask about your customers…'}
          value={busy ? '' : text}
          disabled={busy}
          onChange={(_e, d) => setText(d.value)}
          onKeyDown={onKeyDown}
          maxLength={1000}
        />
        <Button appearance="primary" type="submit" icon={<Send20Filled />} disabled={busy || !text.trim()} aria-label="Send" />
      </form>
    </div>
  );
}
