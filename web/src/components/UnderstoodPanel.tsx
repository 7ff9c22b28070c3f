// "How the question was understood" for the selected query: its chips (UnderstoodChips); "Apply changes"
// re-runs the query from the edited segment without retyping it.
import { Text, makeStyles, tokens } from '@fluentui/react-components';
import { graphql, useFragment } from 'react-relay';
import type { UnderstoodPanel_fields$key } from '../__generated__/UnderstoodPanel_fields.graphql';
import type { UnderstoodPanel_query$key } from '../__generated__/UnderstoodPanel_query.graphql';
import { UnderstoodChips, type SegmentInputOf } from './UnderstoodChips';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`, borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
});

export function UnderstoodPanel(props: { query: UnderstoodPanel_query$key; fields: UnderstoodPanel_fields$key; busy: boolean; onApply: (segment: SegmentInputOf) => void }) {
  const s = useStyles();
  const q = useFragment(
    graphql`
      fragment UnderstoodPanel_query on CustomerQuery {
        id
        understood {
          ...UnderstoodChips_definition @relay(mask: false)
        }
      }
    `,
    props.query,
  );
  const { segmentFields } = useFragment(
    graphql`
      fragment UnderstoodPanel_fields on Query {
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
    props.fields,
  );
  if (!q.understood) return null;
  return (
    <section className={s.root} aria-label="How the question was understood">
      <Text weight="semibold" size={300}>
        How I understood it
      </Text>
      <UnderstoodChips definition={q.understood} fields={segmentFields} busy={props.busy} onApply={props.onApply} applyLabel="Apply changes" label="Conditions" />
    </section>
  );
}
