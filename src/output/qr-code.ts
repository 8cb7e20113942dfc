/**
 * A link as a QR code of block characters, for a phone to scan: each line of text holds two rows of
 * modules (▀ ▄ █ or a space), dark modules drawn, inside a quiet zone of four modules. It is plain
 * text, so it is the same on a terminal, in a file or through a pipe; where colors are on, it is
 * drawn black on white, so that it scans whatever the terminal's own colors are.
 */
import { painter } from '../terminal/messages.js';

export interface QrCode {
  /** The lines of blocks, joined by line feeds, without a final one. */
  text: string;
  /** How many columns each line takes. */
  width: number;
}

export async function qrCode(link: string, color: boolean): Promise<QrCode> {
  // The encoder and the block-character renderer only (src/types/package-parts.d.ts). The package
  // is CommonJS: its functions are on the default export, bundled or not.
  const [{ default: encoder }, { default: renderer }] = await Promise.all([
    import('qrcode/lib/core/qrcode.js'),
    import('qrcode/lib/renderer/utf8.js'),
  ]);
  const blocks = renderer.render(encoder.create(link));
  const lines = blocks.split('\n');
  const paint = painter(color);
  return {
    text: lines.map((line) => paint.black.bgWhite(line)).join('\n'),
    width: Math.max(...lines.map((line) => line.length)),
  };
}
