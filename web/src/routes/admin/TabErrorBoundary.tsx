// A tab whose data cannot be loaded shows the spec's inline alert (§8) in place of the tab, with a
// way to try again; the rest of the console keeps working.
import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { Component, type ReactNode } from 'react';
import { GraphQLClientError } from '../../../../client/errors.js';

interface Props {
  title: string;
  message: string;
  children: ReactNode;
}

export class TabErrorBoundary extends Component<Props, { error: unknown; attempt: number }> {
  override state = { error: null as unknown, attempt: 0 };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    const { error, attempt } = this.state;
    if (!error) return <div key={attempt}>{this.props.children}</div>;
    // A refusal the server explained (e.g. FORBIDDEN) is worth showing beside the spec's sentence.
    const detail = error instanceof GraphQLClientError && !error.isServerProblem ? error.message : null;
    return (
      <MessageBar intent="error" layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>{this.props.title}</MessageBarTitle>
          {this.props.message}
          {detail ? ` (${detail})` : ''}
        </MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => this.setState({ error: null, attempt: attempt + 1 })}>Try again</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
}
