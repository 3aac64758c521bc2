// What the operator identity routes answer (operators/*.view.ts and the sign-in answers), as JSON Schema.
import { OPERATOR_ROLES } from '@svc/db';

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
} from './schemas.js';

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
