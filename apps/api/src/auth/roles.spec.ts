import { grantsRole, isOperatorRole, OPERATOR_ROLES, rolesGranting } from './roles.js';

describe('operator roles', () => {
  it('ADMIN holds every role, every role reads, and the others hold only themselves', () => {
    const table = Object.fromEntries(
      OPERATOR_ROLES.map((held) => [held, OPERATOR_ROLES.filter((required) => grantsRole(held, required))]),
    );
    expect(table).toEqual({
      ADMIN: ['ADMIN', 'KYC_REVIEWER', 'TRADING_OPS', 'SUPPORT'],
      KYC_REVIEWER: ['KYC_REVIEWER', 'SUPPORT'],
      TRADING_OPS: ['TRADING_OPS', 'SUPPORT'],
      SUPPORT: ['SUPPORT'],
    });
  });

  it('lists who may call a route', () => {
    expect(rolesGranting('ADMIN')).toEqual(['ADMIN']);
    expect(rolesGranting('TRADING_OPS')).toEqual(['ADMIN', 'TRADING_OPS']);
    expect(rolesGranting('SUPPORT')).toEqual(OPERATOR_ROLES);
  });

  it('knows a role from anything else', () => {
    expect(OPERATOR_ROLES.every(isOperatorRole)).toBe(true);
    expect(['admin', 'ROOT', '', 1, null].some(isOperatorRole)).toBe(false);
  });
});
