import { Component, type ErrorInfo, type ReactNode } from 'react';
import { GenericErrorPanel } from './error-panel';

interface Props {
  children: ReactNode;
  /** Changing it (e.g. the path) clears a caught error. */
  resetKey?: string;
}

interface State {
  error: unknown;
  hasError: boolean;
  resetKey?: string;
}

export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null, hasError: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, hasError: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey !== state.resetKey) return { resetKey: props.resetKey, error: null, hasError: false };
    return null;
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Unhandled UI error', error, info.componentStack);
  }

  render() {
    if (this.state.hasError) return <GenericErrorPanel error={this.state.error} />;
    return this.props.children;
  }
}
