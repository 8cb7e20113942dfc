/** payorder's version, set by the build from package.json. */
declare const PAYORDER_VERSION: string | undefined;

export const VERSION = typeof PAYORDER_VERSION === 'string' ? PAYORDER_VERSION : '0.0.0-dev';
