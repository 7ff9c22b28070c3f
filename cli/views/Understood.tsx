// How a question was understood: each condition that must hold (a clause with several conditions:
// one of them), the order and limit, and the phrases that were not understood.
import { Box, Text } from 'ink';
import { graphql } from '../graphql.js';
import { words } from '../format.js';
import type { Understood_definition$data } from '../__generated__/Understood_definition.graphql.js';

export const UnderstoodFragment = graphql`
  fragment Understood_definition on SegmentDefinition {
    editable
    explanation
    clauses {
      anyOf {
        label
      }
    }
    sort {
      field
      direction
    }
    limit
    ignoredPhrases
  }
`;

export type UnderstoodData = Omit<Understood_definition$data, ' $fragmentType'>;

const TEXT_FIELDS = new Set(['firstName', 'lastName', 'company', 'email', 'city', 'state', 'country']);

/** "sorted by lifetime value, highest first" in the field's own terms. */
export function sortWords(field: string, direction: string): string {
  const [up, down] = field.endsWith('Date') || field === 'createdAt' ? ['oldest', 'newest'] : TEXT_FIELDS.has(field) ? ['A to Z', 'Z to A'] : ['lowest', 'highest'];
  const order = direction === 'desc' ? down : up;
  return `sorted by ${words(field)}, ${TEXT_FIELDS.has(field) ? order : `${order} first`}`;
}

export function Understood({ understood }: { understood: UnderstoodData }) {
  const { clauses, sort, limit, ignoredPhrases } = understood;
  return (
    <Box flexDirection="column">
      <Text bold>Understood</Text>
      {!understood.editable ? (
        <Text>  {understood.explanation}</Text>
      ) : clauses.length === 0 ? (
        <Text>  <Text color="green">✓</Text> all customers</Text>
      ) : (
        clauses.map((c, i) => (
          <Text key={i}>
            {'  '}
            <Text color="green">✓</Text> {c.anyOf.length === 1 ? c.anyOf[0].label : `one of: ${c.anyOf.map((a) => a.label).join(' | ')}`}
          </Text>
        ))
      )}
      {(sort || limit) && (
        <Text>
          {'  '}
          <Text color="cyan">↕</Text>{' '}
          {[sort ? sortWords(sort.field, sort.direction) : null, limit ? `at most ${limit}` : null]
            .filter(Boolean)
            .join(', ')}
        </Text>
      )}
      {ignoredPhrases.map((p, i) => (
        <Text key={`i${i}`}>
          {'  '}
          <Text color="yellow">? not understood, ignored: “{p}”</Text>
        </Text>
      ))}
    </Box>
  );
}
