// A question the assistant did not understand whole, shown in the conversation (issue 23): what it
// understood (editable chips), what it did not or what contradicts itself, and the choices as buttons.
// Nothing was run or charged; a choice (or the edited chips) runs the question once.
import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { RunQueryMutation$data } from '../__generated__/RunQueryMutation.graphql';
import { UnderstoodChips, type SegmentInputOf } from './UnderstoodChips';
import type { FieldInfo } from './segment-chips';

export type Clarification = NonNullable<RunQueryMutation$data['runQuery']['clarification']>;

/** What the user answers: a choice (by index and id), or the chips as edited. */
export type ClarificationAnswer = { choice: number; choiceId: string } | { segment: SegmentInputOf };

const useStyles = makeStyles({
  root: { alignSelf: 'flex-start', maxWidth: '95%', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`, borderRadius: tokens.borderRadiusLarge, backgroundColor: tokens.colorNeutralBackground3, border: `${tokens.strokeWidthThin} solid ${tokens.colorPaletteMarigoldBorder2}` },
  issues: { margin: 0, paddingLeft: tokens.spacingHorizontalL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  choices: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  note: { color: tokens.colorNeutralForeground3 },
});

export function ClarificationCard(props: { clarification: Clarification; fields: readonly FieldInfo[]; busy: boolean; onAnswer: (answer: ClarificationAnswer) => void }) {
  const s = useStyles();
  const c = props.clarification;
  const understood = c.understood.clauses.length > 0 || c.understood.sort !== null || c.understood.limit !== null;
  return (
    <section className={s.root} aria-label="The assistant asks">
      <Text weight="semibold">{understood ? `I understood: ${c.understood.explanation}` : "I couldn't find a condition I understood."}</Text>
      <ul className={s.issues} aria-label="What needs your choice">
        {c.issues.map((i, k) => (
          <li key={k}>
            <Text>{i.message}</Text>
          </li>
        ))}
      </ul>
      {c.choices.length > 0 && (
        <div className={s.choices} role="group" aria-label="Choices">
          {c.choices.map((ch) => (
            <Button
              key={ch.id}
              size="small"
              appearance={ch.asUnderstood ? 'secondary' : 'primary'}
              disabled={props.busy}
              title={ch.explanation}
              onClick={() => props.onAnswer({ choice: ch.index, choiceId: ch.id })}
            >
              {ch.label}
            </Button>
          ))}
        </div>
      )}
      {understood && c.understood.editable && (
        <UnderstoodChips
          definition={c.understood}
          fields={props.fields}
          busy={props.busy}
          onApply={(segment) => props.onAnswer({ segment })}
          applyLabel="Run with these conditions"
          alwaysApply
          label="What I understood"
        />
      )}
      <Text size={200} className={s.note}>
        Nothing was run and no query was used.
      </Text>
    </section>
  );
}
