// Path parameters of the operator surface, checked before any query runs: a malformed id is a 400 naming
// it, never a database error.
import { Injectable, type PipeTransform } from '@nestjs/common';

import { badRequest } from './errors.js';
import { SYMBOL, SYMBOL_RULE } from './assets.js';

const MAX_INT4 = 2147483647;

@Injectable()
export class OrgIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > MAX_INT4) {
      throw badRequest(`orgId must be an integer from 1 to ${MAX_INT4}`);
    }
    return Number(value);
  }
}

/** A credential named by its row id (a UUID) or by its public value (`pk_…` key, `cl_…` client id). */
export type CredentialRef = { readonly id: string } | { readonly publicValue: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class CredentialRefPipe implements PipeTransform<string, CredentialRef> {
  constructor(private readonly prefix: 'pk' | 'cl') {}

  transform(value: string): CredentialRef {
    if (UUID.test(value)) return { id: value.toLowerCase() };
    if (new RegExp(`^${this.prefix}_[A-Za-z0-9_-]{1,100}$`).test(value)) return { publicValue: value };
    throw badRequest(`id must be a UUID or a ${this.prefix}_… value`);
  }
}

/** A trading pair in a path (`BTC_EUR`), checked against SYMBOL before any query runs. */
@Injectable()
export class SymbolPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!SYMBOL.test(value)) throw badRequest(`symbol must be ${SYMBOL_RULE}`);
    return value;
  }
}

/** A bigint row id in a path (a notice's), 1 to 2^63 - 1. */
@Injectable()
export class BigIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!/^[1-9][0-9]{0,18}$/.test(value) || BigInt(value) > 9223372036854775807n) {
      throw badRequest('id must be an integer from 1 to 9223372036854775807');
    }
    return value;
  }
}

/** A UUID in a path (an operator's, a personal token's). */
@Injectable()
export class UuidPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value)) throw badRequest('id must be a UUID');
    return value.toLowerCase();
  }
}
