// One status line: a mark, the title in bold and the body (spec §8 texts from client/messages.ts).
import { Text } from 'ink';
import type { Notice } from '../../client/messages.js';

const MARKS = { success: ['✔', 'green'], info: ['ℹ', 'blue'], warning: ['⚠', 'yellow'], error: ['✖', 'red'] } as const;

export function NoticeLine({ notice, level = 'success' }: { notice: Notice; level?: keyof typeof MARKS }) {
  const [mark, color] = MARKS[level];
  return (
    <Text>
      <Text color={color}>{mark}</Text> <Text bold>{notice.title}</Text>
      {notice.body ? ` — ${notice.body}` : ''}
    </Text>
  );
}
