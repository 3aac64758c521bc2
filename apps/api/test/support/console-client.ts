// The operator console over plain HTTP, as a browser would use it: the session cookie of a signed-in
// operator, and forms sent with the CSRF token of a console page.
import type { ApiFixture } from './app-fixture.js';
import type { PageAnswer } from './dashboard-session.js';
import type { EnrolledOperator } from './enrolled-operator.js';

export class ConsoleClient {
  private token?: string;

  private constructor(
    readonly baseUrl: string,
    readonly cookie: string,
  ) {}

  /** Signs `operator` in with password and TOTP (a fresh code steps the session up). */
  static async signIn(api: ApiFixture, operator: EnrolledOperator): Promise<ConsoleClient> {
    const { cookie } = await api.signIn(operator);
    return new ConsoleClient(api.baseUrl, cookie);
  }

  async get(path: string): Promise<PageAnswer> {
    const response = await fetch(this.baseUrl + path, {
      headers: { cookie: this.cookie },
      redirect: 'manual',
    });
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  /** A form post with the page's CSRF token (none with `csrf: false`). */
  async post(
    path: string,
    fields: Record<string, string> = {},
    options: { csrf?: boolean } = {},
  ): Promise<PageAnswer> {
    const body = new URLSearchParams(fields);
    if (options.csrf !== false) body.set('_csrf', await this.csrfToken());
    const response = await fetch(this.baseUrl + path, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: this.cookie,
        origin: this.baseUrl,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: body.toString(),
    });
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  /** The CSRF token in the forms of the console's home page (one per session, salted per page). */
  async csrfToken(): Promise<string> {
    if (this.token) return this.token;
    const page = await this.get('/console/');
    const token = /name="_csrf" value="([^"]+)"/.exec(page.html)?.[1];
    if (!token) throw new Error(`no CSRF token on /console/ (${page.status})`);
    this.token = token;
    return token;
  }
}
