/**
 * A generated TypeScript monorepo that never talks to the payment order service, for the migrate
 * benchmark: a shop's packages (each with its package.json, README, tsconfig and a source tree of
 * small folders), documentation pages, workflow YAML and JSON fixtures. Its shape follows a real
 * 15,000-file commerce monorepo: more folders than one for every two files; mostly .ts, .tsx,
 * .md(x), .json and .yaml; sizes spread as a real tree's are (half under 1.1 kB, a tenth over
 * 14 kB, a hundredth over 120 kB). A shop has its own `/checkout` routes, order numbers, statuses
 * and amounts, so a few files (about 1 in 250) carry what grep looks for. The same seed writes the
 * same tree.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A small deterministic generator (mulberry32): the tree is the same on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CODE = [
  "import { z } from 'zod';",
  "import type { CartDTO, LineItemDTO } from '@shop/types';",
  "import { MedusaError } from '../../utils/errors';",
  'export async function retrieveCart(id: string, options: FindOptions = {}): Promise<CartDTO> {',
  '  const cart = await this.cartRepository.findOne({ where: { id }, relations: options.relations });',
  '  if (!cart) throw new NotFoundError(`Cart with id: ${id} was not found`);',
  '  return cart;',
  '}',
  'const total = items.reduce((sum, item) => sum + item.unit_price * item.quantity, 0);',
  "router.post('/store/carts/:id/complete', validate(CompleteCartSchema), completeCart);",
  "router.get('/store/orders/:id', authenticate('customer'), retrieveOrder);",
  "export const OrderStatus = { PENDING: 'pending', COMPLETED: 'completed', CANCELED: 'canceled' } as const;",
  '  expect(response.status).toEqual(200);',
  "  expect(response.data.order).toEqual(expect.objectContaining({ display_id: 1, currency_code: 'usd' }));",
  'export interface ProductVariant { id: string; sku: string | null; prices: MoneyAmount[] }',
  '  // Keep the region of the cart when the customer changes country',
  '  const region = await regionService.retrieve(data.region_id, { relations: ["countries"] });',
  'describe("POST /admin/orders/:id/fulfillment", () => {',
  '  it("creates a fulfillment for the items of an order", async () => {',
  '  });',
  '});',
  'export default defineConfig({ projectConfig: { databaseUrl: process.env.DATABASE_URL } });',
  '  const { data } = await api.get(`/admin/products?limit=${limit}&offset=${offset}`, adminHeaders);',
  "  if (payment.status === 'authorized') await paymentProviderService.capturePayment(payment);",
];
const TSX = [
  "import { Button, Heading } from '@shop/ui';",
  "import { useTranslation } from 'react-i18next';",
  'export const CartSummary = ({ cart }: { cart: HttpTypes.StoreCart }) => {',
  '  const { t } = useTranslation();',
  '  return (',
  '    <div className="flex flex-col gap-y-4">',
  '      <Heading level="h2">{t("cart.summary")}</Heading>',
  '    </div>',
  '  );',
  '};',
  '  const [open, setOpen] = useState(false);',
  '  useEffect(() => { if (!cart) router.push("/cart") }, [cart, router]);',
];
const DOCS = [
  '# Orders',
  'An order is created when a customer completes a cart. Its `display_id` is the number shown to the customer.',
  '```ts',
  'const { order } = await sdk.store.order.retrieve(orderId)',
  '```',
  '## Payment sessions',
  '| Field | Type | Description |',
  '| --- | --- | --- |',
  '| `currency_code` | string | The ISO 4217 code of the currency |',
  '',
];
const YAML = [
  'name: Integration tests',
  'on:',
  '  pull_request:',
  '    branches: [develop]',
  'jobs:',
  '  test:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  '      - uses: actions/setup-node@v4',
  '      - run: yarn test:integration --shard=${{ matrix.shard }}/4',
];
/** Lines a few files have (about 1 in 250, as in the real tree): what grep looks for, or a date. */
const RARE = [
  '      <a href="/checkout?step=address"><Button className="w-full">{t("cart.goToCheckout")}</Button></a>',
  'The storefront moves the customer to `/checkout` once the cart has a shipping address.',
  'Released on 2024/10/01: see the changelog for the upgrade guide.',
];
const JSON_LINE =
  '    { "id": "prod_01", "title": "Sweatshirt", "handle": "sweatshirt", "variants": [{ "sku": "SWEAT-S", "prices": [{ "amount": 1000, "currency_code": "eur" }] }] },';

/** Lines from `pool`, chosen by `next`, up to about `bytes` bytes. */
function text(pool: string[], bytes: number, next: () => number): string {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = pool[Math.floor(next() * pool.length)]!;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** A size drawn from a log-normal spread around 1.1 kB (a tenth over 14 kB), at most 2.5 MB. */
function size(next: () => number): number {
  const normal = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return Math.min(Math.round(Math.exp(7 + 2 * normal)), 2.5 * 1024 * 1024);
}

const AREAS = [
  'api',
  'services',
  'models',
  'utils',
  'hooks',
  'components',
  'workflows',
  'subscribers',
  'migrations',
  '__tests__',
];
const KINDS: Array<{ share: number; extension: string; pool: string[] }> = [
  { share: 0.5, extension: 'ts', pool: CODE },
  { share: 0.2, extension: 'tsx', pool: TSX },
  { share: 0.15, extension: 'mdx', pool: DOCS },
  { share: 0.05, extension: 'md', pool: DOCS },
  { share: 0.05, extension: 'json', pool: [JSON_LINE] },
  { share: 0.05, extension: 'yaml', pool: YAML },
];

/** The kind of file a draw in [0, 1) picks, each by its share. */
function kindAt(draw: number): (typeof KINDS)[number] {
  let left = draw;
  for (const kind of KINDS) {
    left -= kind.share;
    if (left < 0) return kind;
  }
  return KINDS[0]!;
}

/** Writes the tree of `files` files under `root` and returns `root`. */
export function monorepoTree(root: string, files = 15_000, seed = 26): string {
  const next = random(seed);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, '.gitignore'), 'node_modules\ndist\n.env\ncoverage\n*.log\n');
  writeFileSync(
    join(root, 'package.json'),
    '{ "name": "shop", "private": true, "workspaces": ["packages/*"] }\n',
  );
  let written = 2;
  for (let pkg = 0; written < files; pkg++) {
    const base = join(root, 'packages', `package-${pkg}`);
    mkdirSync(base, { recursive: true });
    writeFileSync(
      join(base, 'package.json'),
      `{\n  "name": "@shop/package-${pkg}",\n  "version": "2.${pkg}.0",\n  "main": "dist/index.js",\n  "scripts": { "build": "tsc", "test": "jest" }\n}\n`,
    );
    writeFileSync(join(base, 'README.md'), text(DOCS, 1500, next));
    writeFileSync(
      join(base, 'tsconfig.json'),
      '{ "extends": "../../tsconfig.base.json", "include": ["src"] }\n',
    );
    written += 3;
    // About 80 files a package, in small folders as a real source tree has them.
    for (let folder = 0; folder < 50 && written < files; folder++) {
      const area = AREAS[Math.floor(next() * AREAS.length)]!;
      const dir = join(base, 'src', area, `${area}-${folder}`);
      mkdirSync(dir, { recursive: true });
      const count = 1 + Math.floor(next() * 2.2);
      for (let i = 0; i < count && written < files; i++, written++) {
        const kind = kindAt(next());
        const rare = next() < 0.004 ? `${RARE[Math.floor(next() * RARE.length)]}\n` : '';
        const body = text(kind.pool, size(next), next) + rare;
        writeFileSync(
          join(dir, `${area}-${folder}-${i}.${kind.extension}`),
          kind.extension === 'json' ? `{\n  "products": [\n${body}    {}\n  ]\n}\n` : body,
        );
      }
    }
  }
  return root;
}
