// Parts of packages that payorder imports by path, to bundle only what it uses: typed as the
// packages' own types describe them, which cover their index only.

// The batch transport (src/api/keep-alive.ts).
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** Dispatcher's `request`, called with the dispatcher as `this`. */
  export default function request(
    this: Dispatcher,
    options: Dispatcher.RequestOptions,
  ): Promise<Dispatcher.ResponseData>;
}

declare module 'undici/lib/interceptor/redirect.js' {
  import type { interceptors } from 'undici';

  const redirect: typeof interceptors.redirect;
  export default redirect;
}

// QR codes (src/output/qr-code.ts): the encoder and the text renderer, without the PNG, SVG and
// terminal renderers (and pngjs) that the package's index loads.
declare module 'qrcode/lib/core/qrcode.js' {
  import type { QRCode, QRCodeOptions } from 'qrcode';

  const encoder: { create(text: string, options?: QRCodeOptions): QRCode };
  export default encoder;
}

declare module 'qrcode/lib/renderer/utf8.js' {
  import type { QRCode, QRCodeToStringOptions } from 'qrcode';

  const renderer: { render(code: QRCode, options?: QRCodeToStringOptions): string };
  export default renderer;
}
