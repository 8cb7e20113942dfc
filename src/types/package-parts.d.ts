// Parts of packages that payorder imports by path, to bundle only what it uses: typed as the
// packages' own types describe them, which cover their index only.

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
