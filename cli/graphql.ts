// Typed GraphQL documents for the CLI. relay-compiler reads every graphql`…` document under cli/ and
// writes its operation text and TypeScript types to cli/__generated__ (`npm run relay`, also on
// install). A command sends the generated text, typed by the generated types, through the shared
// client transport; Relay's runtime (store, normalisation) is not used. Shared selections are
// fragments spread with @relay(mask: false), so their fields are part of the operation's own type.
import type { ConcreteRequest, OperationType } from 'relay-runtime';

/** Marks a document for relay-compiler; at run time it is only its source text. */
export function graphql(strings: TemplateStringsArray): string {
  return strings.join('');
}

export interface Operation<T extends OperationType> {
  readonly name: string;
  readonly text: string;
  /** Reads may be tried again after a lost connection; writes are not. */
  readonly kind: 'query' | 'mutation' | 'subscription';
  /** Only carries the generated types. */
  readonly types?: T;
}

/**
 * The operation of a generated artifact. `source` is the graphql`…` document it was generated from:
 * a renamed document whose artifact was not regenerated fails here, at start-up, not on the server.
 */
export function operation<T extends OperationType>(artifact: ConcreteRequest, source: string): Operation<T> {
  const { name, text, operationKind } = artifact.params;
  if (!text || !new RegExp(`\\b(query|mutation|subscription)\\s+${name}\\b`).test(source)) {
    throw new Error(`The GraphQL document ${name} is out of date: run npm run relay`);
  }
  return { name, text, kind: operationKind };
}
