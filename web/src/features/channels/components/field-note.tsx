/** A field's help, or what is wrong with it and what to do next, announced when it appears. */
export function FieldNote({ id, problem, next, help }: { id: string; problem?: string | undefined; next?: string | undefined; help?: string }) {
  if (problem) {
    return (
      <p key="problem" id={id} className="dest-field__error" role="alert">
        {problem}
        {next && <span className="dest-field__next">{next}</span>}
      </p>
    );
  }
  return help ? (
    <p key="help" id={id} className="dest-field__help">
      {help}
    </p>
  ) : null;
}
