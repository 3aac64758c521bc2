// The field a sensitive form (a route with @RequireRole(role, { stepUp: true })) carries: when the session
// has not shown a TOTP code within OPERATOR_STEP_UP_MINUTES, it asks for one, and the authentication
// service steps the session up with it before the action (auth/authentication.service.ts); otherwise it
// says until when no code is needed.
import { Time } from '../../web/components/ui.js';
import { type ConsoleContext, STEP_UP_FIELD } from '../../operators/console-context.js';

export function StepUpField(props: { readonly ctx: ConsoleContext; readonly id: string }) {
  const until = props.ctx.stepUpUntil;
  if (until !== null) {
    return (
      <p class="hint">
        No code needed: you confirmed with your authenticator until <Time iso={until.toISOString()} />.
      </p>
    );
  }
  return (
    <label for={props.id}>
      Code from your authenticator app
      <span class="hint">This action needs a fresh code (6 digits).</span>
      <input
        id={props.id}
        type="text"
        name={STEP_UP_FIELD}
        inputMode="numeric"
        autocomplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        required
      />
    </label>
  );
}
