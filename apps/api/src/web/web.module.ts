// What every web area's pages share as providers (the rest of the stack is plain functions and components).
import { Module } from '@nestjs/common';

import { CsrfTokens } from '../common/csrf-tokens.js';

@Module({ providers: [CsrfTokens], exports: [CsrfTokens] })
export class WebModule {}
