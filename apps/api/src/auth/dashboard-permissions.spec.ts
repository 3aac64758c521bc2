import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  DASHBOARD_PAGES,
  DASHBOARD_PERMISSIONS,
  DASHBOARD_SCOPES,
  missingScope,
  pagesGrantedBy,
} from './dashboard-permissions.js';

describe('what a dashboard session may do', () => {
  it('names the first scope a credential lacks, READWRITE standing for READ and WRITE', () => {
    expect(missingScope(['BASE_MODULE:WRITE'], DASHBOARD_SCOPES.permissions.REVEAL_SECRET)).toBe(
      'BASE_MODULE:READWRITE',
    );
    expect(
      missingScope(['BASE_MODULE:READ', 'BASE_MODULE:WRITE'], ['BASE_MODULE:READWRITE']),
    ).toBeUndefined();
    expect(missingScope(['BASE_MODULE:READWRITE'], DASHBOARD_SCOPES.permissions.MANAGE_CREDENTIALS)).toBe(
      'MANAGE_USERS:READWRITE',
    );
    expect(missingScope(['BASE_MODULE:READWRITE'], DASHBOARD_SCOPES.pages.USERS)).toBe('MANAGE_USERS:READ');
    expect(missingScope([], DASHBOARD_SCOPES.pages.CATALOGUE)).toBeUndefined();
  });

  it('gives a link without pages those its creator may read, in navigation order', () => {
    expect(pagesGrantedBy([])).toEqual(['CATALOGUE']);
    expect(pagesGrantedBy(['BASE_MODULE:WRITE'])).toEqual(['CATALOGUE']);
    expect(pagesGrantedBy(['MANAGE_USERS:READWRITE', 'BASE_MODULE:READ'])).toEqual([...DASHBOARD_PAGES]);
    expect(pagesGrantedBy(['BASE_MODULE:READ'])).toEqual([
      'OVERVIEW',
      'WEBHOOK',
      'EVENTS',
      'ORDERS',
      'CREDENTIALS',
      'CATALOGUE',
    ]);
  });

  it('is documented as it is: the tables of docs/dashboard.md list the scopes of DASHBOARD_SCOPES', () => {
    const docs = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'dashboard.md'), 'utf8');
    const needs = (name: string): string[] | undefined => {
      const row = docs.split('\n').find((line) => line.startsWith(`| \`${name}\``));
      const cell = row?.split('|').at(-2)?.trim();
      return cell === 'nothing' ? [] : cell?.split(', ').map((scope) => scope.replaceAll('`', ''));
    };
    for (const permission of DASHBOARD_PERMISSIONS) {
      expect([permission, needs(permission)]).toEqual([permission, DASHBOARD_SCOPES.permissions[permission]]);
    }
    for (const page of DASHBOARD_PAGES) {
      expect([page, needs(page)]).toEqual([page, DASHBOARD_SCOPES.pages[page]]);
    }
  });
});
