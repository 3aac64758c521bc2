// The rules of an organisation's fields, shared by create and update (docs/decisions.md, "Organisations:
// fields and views").
import { applyDecorators } from '@nestjs/common';
import { ORG_PLANS } from '@svc/db';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsEmail, IsIn, IsString, Matches } from 'class-validator';

export const ORG_NAME = /^(?=.*\S)[^\p{Cc}]{1,200}$/u;

/**
 * A hostname of two labels or more (or `localhost`, for development), lowercased: webhook hosts must be
 * it or a subdomain (docs/api-guide.md#webhook-signatures), so a bare top-level domain or an IP address would be meaningless or
 * dangerous. International names in their punycode (xn--) form; the last label holds a letter.
 */
export const KYC_DOMAIN =
  /^(?=.{1,253}$)(?:localhost|(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?=[a-z0-9-]*[a-z])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)$/;

export const MAX_SUPPORT_EMAILS = 10;

const lowercase = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.toLowerCase() : value;
const caseless = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

export const OrgName = () =>
  applyDecorators(
    IsString(),
    Matches(ORG_NAME, {
      message: 'name must be 1 to 200 characters, not blank, without control characters',
    }),
  );

export const KycDomain = () =>
  applyDecorators(
    Transform(lowercase),
    IsString(),
    Matches(KYC_DOMAIN, {
      message:
        'kycDomain must be a hostname such as example.com: dot-separated labels of letters, digits and ' +
        'hyphens, no scheme, port or path (punycode for international names)',
    }),
  );

export const Plan = () =>
  applyDecorators(IsIn(ORG_PLANS, { message: `plan must be one of ${ORG_PLANS.join(', ')}` }));

export const SupportEmails = () =>
  applyDecorators(
    IsArray({ message: 'supportEmails must be an array of e-mail addresses' }),
    ArrayMaxSize(MAX_SUPPORT_EMAILS, {
      message: `supportEmails must hold at most ${MAX_SUPPORT_EMAILS} addresses`,
    }),
    ArrayUnique(caseless, { message: 'supportEmails must not repeat an address' }),
    IsEmail(
      { require_tld: false, allow_ip_domain: false },
      { each: true, message: 'supportEmails must hold e-mail addresses only' },
    ),
  );
