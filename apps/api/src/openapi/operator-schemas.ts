// What the operator identity routes answer (operators/*.view.ts and the sign-in answers), as JSON Schema,
// and what the document says of every operator route: its role, its step-up, its 401 and 403.
import type { OpenAPIObject } from '@nestjs/swagger';
import { OPERATOR_ROLES } from '@svc/db';

import { OPERATOR_EXTENSIONS } from '../auth/decorators.js';
import { type OperatorRole, rolesGranting } from '../auth/roles.js';

import {
  arrayOf,
  boolean,
  dateTime,
  enumOf,
  orNull,
  record,
  ref,
  type Schema,
  string,
  uuid,
} from './schema-parts.js';

const operator = {
  id: uuid,
  email: { type: 'string', format: 'email' },
  name: string,
  role: enumOf(OPERATOR_ROLES),
  status: {
    ...enumOf(['PENDING', 'ACTIVE', 'DISABLED']),
    description: 'PENDING until enrolled (password and TOTP) or linked to single sign-on',
  },
  passwordSignIn: { ...boolean, description: 'Password and TOTP enrolled' },
  singleSignOn: { ...boolean, description: 'Linked to an OpenID Connect identity' },
  createdAt: dateTime,
  updatedAt: dateTime,
};

const token = {
  id: uuid,
  operatorId: uuid,
  label: string,
  createdAt: dateTime,
  expiresAt: dateTime,
  lastUsedAt: { ...orNull(dateTime), description: 'To the minute; null when never used' },
  revokedAt: orNull(dateTime),
};

export const OPERATOR_SCHEMAS: Record<string, Schema> = {
  Operator: record('An operator: a person on the operator surface, with their role', operator),
  OperatorList: record('Every operator, by e-mail', { items: arrayOf(ref('Operator')) }),
  CreatedOperator: record('An operator just created or reset, with the enrolment token shown once', {
    ...operator,
    setupToken: { ...string, description: 'Single use: enrol with it (password and TOTP). Shown once.' },
    setupExpiresAt: dateTime,
  }),
  OperatorToken: record('A personal API token, without its value', token),
  OperatorTokenList: record("The caller's personal tokens, newest first", {
    items: arrayOf(ref('OperatorToken')),
  }),
  IssuedOperatorToken: record('A personal API token just issued, with its value shown once', {
    ...token,
    token: {
      ...string,
      pattern: '^op_[A-Za-z0-9_-]{43}$',
      description: 'Authorization: Bearer <token>. Shown once.',
    },
  }),
  Enrolment: record('Your TOTP secret: add it to your authenticator app, then confirm with a code', {
    email: { type: 'string', format: 'email' },
    totpSecret: { ...string, description: 'Base32, to type into an authenticator app. Shown once.' },
    otpauthUri: { ...string, description: 'otpauth://totp/… for a QR code. Shown once.' },
  }),
  OperatorSession: record('Who you are, and the session or personal token in use', {
    operator: ref('Operator'),
    via: enumOf(['session', 'token']),
    expiresAt: { ...orNull(dateTime), description: "The session's absolute end; null for a token" },
    idleMinutes: {
      type: ['integer', 'null'],
      description: 'The session ends after this long without a request; null for a token',
    },
    stepUpUntil: {
      ...orNull(dateTime),
      description: 'Sensitive actions need no new code until then; null: they need one now',
    },
    csrfToken: {
      ...orNull(string),
      description: 'Send as X-CSRF-Token with every session request but GET; null for a token',
    },
  }),
};

type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;

/** An operator route's role and step-up in its description, and the 401 and 403 they can give. */
export function describeOperatorRoute(operation: Operation, role: OperatorRole): void {
  const stepUp = (operation as unknown as Record<string, unknown>)[OPERATOR_EXTENSIONS.stepUp] === true;
  const who = role === 'SUPPORT' ? 'any operator role' : rolesGranting(role).join(' or ');
  operation.description =
    `${operation.description ?? ''}\n\nRole: ${role} (held by ${who}).` +
    (stepUp ? ' Sensitive: needs a second factor shown within OPERATOR_STEP_UP_MINUTES (step-up).' : '');
  operation.responses['401'] = {
    description:
      'Missing, bad, expired or revoked credentials' +
      (stepUp
        ? '; or step_up_required: show a TOTP code at POST /api/v1/admin/session/step-up, then retry'
        : ''),
    content: { 'application/json': { schema: ref('ErrorEnvelope') } },
  };
  operation.responses['403'] = {
    description: `Your role is not ${who}; or a session request without its X-CSRF-Token`,
    content: { 'application/json': { schema: ref('ErrorEnvelope') } },
  };
}
