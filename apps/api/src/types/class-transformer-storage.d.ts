// class-transformer's storage of the rules its decorators record: the module its index loads but does not
// export (common/validation.ts reads it); its types ship apart from its code.
declare module 'class-transformer/cjs/storage.js' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage.js';
}
