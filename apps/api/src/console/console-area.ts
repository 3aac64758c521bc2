// The operator console as a web area (web/web-areas.ts): its path, its name, what its error pages add, its
// sign-in page and its navigation. Loaded with console.module.ts, which registers it before the app answers.
import { registerWebArea } from '../web/web-areas.js';
import { CONSOLE_NAV, CONSOLE_PATH, CONSOLE_SIGN_IN } from './nav.js';

export const CONSOLE_AREA = registerWebArea({
  path: CONSOLE_PATH,
  name: 'Operator console',
  hints: {
    401: 'Your console session has ended: sign in again.',
    403: 'Your role does not allow this. An ADMIN can change your role (docs/console.md#roles).',
    404: 'There is nothing here.',
  },
  signIn: CONSOLE_SIGN_IN,
  nav: CONSOLE_NAV,
});
