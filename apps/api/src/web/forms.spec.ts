import { AppError } from '../common/errors.js';
import { NumberText } from '../common/decimal.js';
import { CreateOperatorDto } from '../operators/dto/operator.dto.js';
import { UpdatePolicyDto } from '../policy/dto/update-policy.dto.js';
import { SetPriceDto } from '../prices/dto/set-price.dto.js';
import { CSRF_FIELD } from '../common/csrf-tokens.js';
import {
  checkForm,
  formInput,
  formList,
  formMap,
  formNumber,
  formText,
  formTyped,
  formValues,
  FormState,
} from './forms.js';

describe('web forms', () => {
  describe('reading fields', () => {
    const body = {
      name: '  Ada  ',
      blank: '   ',
      price: ' 0.10000000000000000001 ',
      notANumber: '1e3',
      list: 'BTC, eth\n\n ,USDT ',
      limits: 'EUR 1000\nBTC=0.5, nonsense',
      file: { not: 'text' },
    };

    it('reads text trimmed, and an empty or absent or non-text field as left out', () => {
      expect(formText(body, 'name')).toBe('Ada');
      expect(formText(body, 'blank')).toBeUndefined();
      expect(formText(body, 'missing')).toBeUndefined();
      expect(formText(body, 'file')).toBeUndefined();
      expect(formText(undefined, 'name')).toBeUndefined();
    });

    it('reads a field as typed, untrimmed, or the empty text', () => {
      expect(formTyped(body, 'name')).toBe('  Ada  ');
      expect(formTyped(body, 'missing')).toBe('');
      expect(formTyped(body, 'file')).toBe('');
    });

    it('reads an amount as the exact decimal its digits spell, and anything else as its text', () => {
      const price = formNumber(body, 'price');
      expect(price).toEqual(new NumberText('0.10000000000000000001'));
      expect(formNumber(body, 'notANumber')).toBe('1e3');
      expect(formNumber(body, 'missing')).toBeUndefined();
    });

    it('reads a list one entry a line or comma-separated, blanks dropped', () => {
      expect(formList(body, 'list')).toEqual(['BTC', 'eth', 'USDT']);
      expect(formList(body, 'missing')).toBeUndefined();
      expect(formList({ list: '' }, 'list')).toEqual([]);
    });

    it('reads a limit map, keeping an entry that is not a code and an amount for the rule to name', () => {
      const map = formMap(body, 'limits');
      expect(Object.keys(map ?? {})).toEqual(['EUR', 'BTC', 'nonsense']);
      expect(map?.EUR).toEqual(new NumberText('1000'));
      expect(map?.BTC).toEqual(new NumberText('0.5'));
      expect(map?.nonsense).toBe('nonsense');
      expect(formMap({ limits: '' }, 'limits')).toEqual({});
    });
  });

  describe('checking a form with the api rules', () => {
    it('gives the DTO when every field passes, absent fields left out', async () => {
      const body = { price: '55000.5' };
      const checked = await checkForm(SetPriceDto, { price: formNumber(body, 'price') });
      expect(checked.ok).toBe(true);
      if (!checked.ok) return;
      expect(checked.input).toBeInstanceOf(SetPriceDto);
      expect(String(checked.input.price)).toBe('55000.5');
      const policy = await checkForm(UpdatePolicyDto, { vatRate: undefined, enabledAssets: ['BTC'] });
      expect(policy.ok && policy.input.enabledAssets).toEqual(['BTC']);
      expect(policy.ok && policy.input.vatRate).toBeUndefined();
    });

    it("names each refused field and its rule, under the field's name", async () => {
      const body = { email: 'not-an-email', name: '', role: 'KING' };
      const checked = await checkForm(CreateOperatorDto, {
        email: formText(body, 'email'),
        name: formText(body, 'name'),
        role: formText(body, 'role'),
      });
      expect(checked.ok).toBe(false);
      if (checked.ok) return;
      expect(Object.keys(checked.errors).sort()).toEqual(['email', 'name', 'role']);
      for (const [field, messages] of Object.entries(checked.errors)) {
        expect(messages.length).toBeGreaterThan(0);
        for (const message of messages) expect(message.startsWith(field)).toBe(true);
      }
      expect(checked.message).toBe(Object.values(checked.errors).flat().join('; '));
    });

    it('puts a nested rule and a hidden key under the top field the form has', async () => {
      const nested = await checkForm(UpdatePolicyDto, { quoteLimit: formMap({ q: 'EUR -5' }, 'q') });
      expect(!nested.ok && Object.keys(nested.errors)).toEqual(['quoteLimit']);
      const hidden = await checkForm(UpdatePolicyDto, { quoteLimit: formMap({ q: 'toString 5' }, 'q') });
      expect(hidden.ok).toBe(false);
      if (hidden.ok) return;
      expect(Object.keys(hidden.errors)).toEqual(['quoteLimit']);
      expect(hidden.message).toContain('quoteLimit.toString');
    });

    it('refuses an unknown field as the api does', async () => {
      const checked = await checkForm(SetPriceDto, { price: formNumber({ p: '1' }, 'p'), extra: 'x' });
      expect(!checked.ok && checked.errors.extra).toEqual(['extra: property extra should not exist']);
    });

    it('throws the 400 naming the fields where a page answers a refused form with an error page', async () => {
      const refused = await formInput(SetPriceDto, { price: 'cheap' }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AppError);
      expect((refused as AppError).status).toBe(400);
      expect((refused as AppError).detail).toMatch(/^price /);
      await expect(formInput(SetPriceDto, { price: formNumber({ p: '2' }, 'p') })).resolves.toBeInstanceOf(
        SetPriceDto,
      );
    });
  });

  describe('the values typed so far', () => {
    const body = { [CSRF_FIELD]: 'token', email: ' ada@example.com ', code: '123456', file: { x: 1 } };

    it('keeps every text field as typed, never the CSRF token nor a withheld field', () => {
      expect(formValues(body)).toEqual({ email: ' ada@example.com ', code: '123456' });
      expect(formValues(body, ['code'])).toEqual({ email: ' ada@example.com ' });
      expect(formValues(undefined)).toEqual({});
    });

    it('gives a page what it needs to show a refused form again: values, errors, aria attributes', async () => {
      const checked = await checkForm(CreateOperatorDto, {
        email: formText(body, 'email'),
        name: 'Ada',
        role: 'KING',
      });
      if (checked.ok) throw new Error('the role should be refused');
      const state = FormState.refused(body, checked.errors, ['code']);
      expect(state.refused).toBe(true);
      expect(state.value('email')).toBe(' ada@example.com ');
      expect(state.value('code')).toBe('');
      expect(state.value('name', 'fallback')).toBe('fallback');
      expect(state.errorsOf('email')).toEqual([]);
      expect(state.errorsOf('role')[0]).toMatch(/^role /);
      expect(state.describe('role', 'operator-role')).toEqual({
        'aria-invalid': 'true',
        'aria-describedby': 'operator-role-error',
      });
      expect(FormState.errorId('operator-role')).toBe('operator-role-error');
      expect(state.describe('email', 'operator-email')).toEqual({});
      expect(FormState.EMPTY.refused).toBe(false);
      expect(FormState.EMPTY.value('email')).toBe('');
    });
  });
});
