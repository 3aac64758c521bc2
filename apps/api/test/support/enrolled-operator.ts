// An operator as a person is: a password and an authenticator app that makes TOTP codes.
import { generate } from 'otplib';

/** An operator who enrolled over HTTP (password and TOTP), and fresh codes of their authenticator. */
export class EnrolledOperator {
  /** The last TOTP step a code was made for: each is accepted once. */
  private lastStep = 0;

  constructor(
    readonly id: string,
    readonly email: string,
    readonly password: string,
    readonly totpSecret: string,
    /** Clears the api's record of the last step used, so a test need not wait 30 s for a new code. */
    private readonly forgetLastStep: () => Promise<unknown>,
  ) {}

  /**
   * A code the api has not seen: this step's, or the next one's (one step of drift is accepted). When both
   * were used, the api's record of the last step is cleared rather than waiting for the next step (the
   * refusal of a used code is tested on its own).
   */
  async code(): Promise<string> {
    const step = Math.floor(Date.now() / 30_000);
    let target = Math.max(step, this.lastStep + 1);
    if (target > step + 1) {
      await this.forgetLastStep();
      target = step;
    }
    this.lastStep = target;
    return generate({ secret: this.totpSecret, epoch: target * 30 });
  }
}
