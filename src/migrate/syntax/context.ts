/**
 * Where a file talks to the payment order service: calls to a token or checkout address, clients
 * built on a service base address, variables holding what those calls answer, bodies sent to them,
 * and types that model the service's bodies. A rule about the service's fields asks here before it
 * reports an error; where nothing here can tell, it reports info.
 */
import type { Call, Expr, MapLit, Node, TypeDecl } from './ast.js';
import { literalPart, walk } from './ast.js';
import { ancestors, type Facts, loose, rootName, targetName } from './facts.js';
import { type Folded, Folder, serviceHost, serviceName, UNKNOWN, unknownNames, v1Markers } from './values.js';

export type BodyKind = 'token' | 'order';
export type CallKind = BodyKind | 'lookup' | 'service';
export type ModelKind = 'token' | 'order' | 'response' | 'links';

/** Calls that register the shop's own routes, not calls to the service. */
const ROUTE_CALLS = /^(?:route|Route|Map\w*|HandleFunc|Handle|match|resources?|any)$/;
const BASE_KEYS = /^(?:base_?ur[il]|base_?address|base|host|endpoint|prefixUrl|url|uri|api_?base)$/i;
const TOKEN_KEYS = new Set(['clientsecretid', 'granttype', 'clientid']);
/** Keys no other API shares: evidence wherever they are written. */
const OWN_KEYS = new Set(['clientsecretid', 'callbacksuccess', 'callbackfail']);
const ORDER_KEYS = new Set(['callbacksuccess', 'callbackfail', 'notificationurl', 'externalreference']);

/** Which service operation a folded address names, if any. */
export function addressKind(folded: Folded, relativeAllowed: boolean): CallKind | undefined {
  const text = folded.text;
  for (const match of text.matchAll(/(?<=^|\/)(auth\/token|checkout(?![\w-])|orders?\/)/g)) {
    const before = text.slice(0, match.index);
    // Not in the host name (https://checkout.example.com).
    if (/:\/\/[^/]*$/.test(before)) continue;
    const based = before.includes('://') || before.includes(UNKNOWN) || /\/(?:1|v2\/api)\/$/.test(before);
    if (!based && !relativeAllowed) continue;
    return match[1] === 'auth/token' ? 'token' : match[1] === 'checkout' ? 'order' : 'lookup';
  }
  return undefined;
}

export function keyKind(keys: string[]): BodyKind | undefined {
  const normalized = keys.map(loose);
  if (normalized.some((key) => TOKEN_KEYS.has(key))) return 'token';
  if (normalized.some((key) => ORDER_KEYS.has(key))) return 'order';
  if (normalized.includes('amount') && normalized.includes('description')) return 'order';
  return undefined;
}

export function modelKind(type: TypeDecl): ModelKind | undefined {
  const names = type.fields.map((field) => loose(field.json?.name ?? field.name));
  if (names.some((name) => name === 'clientsecretid' || name === 'granttype')) return 'token';
  if (names.some((name) => name === 'callbacksuccess' || name === 'callbackfail')) return 'order';
  if (
    names.some((name) => name === 'ordernumber' || name === 'refnumber') ||
    (names.includes('links') && names.includes('uuid'))
  )
    return 'response';
  if (names.includes('checkoutlink') || (names.includes('success') && names.includes('failed')))
    return 'links';
  return undefined;
}

export class ServiceContext {
  readonly folder: Folder;
  readonly clients = new Set<string>();
  readonly responses = new Set<string>();
  private callKinds = new Map<Call, CallKind | undefined>();
  private bodyKinds = new Map<MapLit, BodyKind | undefined>();

  constructor(readonly facts: Facts) {
    this.folder = new Folder(facts);
    this.findClients();
    this.findResponses();
  }

  /** The name of the object a call is made on: `checkout` in `checkout.post(…)`, `client` in `$this->client->get(…)`. */
  receiverOf(call: Call): string | undefined {
    const object = call.callee?.k === 'member' ? call.callee.object : undefined;
    if (object?.k === 'id') return object.name.replace(/^\$/, '');
    if (object?.k === 'member') return object.name;
    return undefined;
  }

  callKind(call: Call): CallKind | undefined {
    if (this.callKinds.has(call)) return this.callKinds.get(call);
    this.callKinds.set(call, undefined);
    let kind: CallKind | undefined;
    const isRoute =
      ROUTE_CALLS.test(call.name) ||
      call.args.some((arg) => containsFunction(arg)) ||
      call.block.some((n) => n.k === 'func');
    const receiver = this.receiverOf(call);
    // A client built on a service base, or named for the service (`checkout_connection`, `payOrderClient`).
    const onClient = receiver !== undefined && (this.clients.has(receiver) || serviceName(receiver));
    if (!isRoute || onClient) {
      for (const arg of call.args) {
        if (arg.k === 'map' || arg.k === 'num') continue;
        kind = addressKind(this.folder.fold(arg), onClient);
        if (kind) break;
      }
      if (!kind && call.construct === false) {
        for (const entry of call.named) {
          if (!BASE_KEYS.test(entry.key) && !/^(?:url|uri|path)$/i.test(entry.key)) continue;
          kind = addressKind(this.folder.fold(entry.value), false);
          if (kind) break;
        }
      }
      if (!kind && onClient) kind = 'service';
    }
    this.callKinds.set(call, kind);
    return kind;
  }

  /**
   * Whether a client is built on a base address of the service: a versioned base (/1 or /v2/api), or
   * an address whose host or name speaks of the service.
   */
  private serviceBase(folded: Folded, names: string[]): boolean {
    if (v1Markers(folded).length > 0 || folded.text.includes('/v2/api')) return true;
    return (
      (folded.text.includes('://') || folded.text.startsWith(UNKNOWN)) &&
      (serviceHost(folded.text) || [...names, ...unknownNames(folded)].some(serviceName))
    );
  }

  private findClients(): void {
    for (const assign of this.facts.assigns) {
      const name = targetName(assign.target);
      if (!name || !assign.value) continue;
      if (assign.value.k !== 'call') continue;
      const call = assign.value;
      const candidates: Array<[Expr | undefined, string[]]> = [
        ...call.args.map((arg): [Expr, string[]] => [arg, [name]]),
        ...call.named.map((entry): [Expr | undefined, string[]] => [entry.value, [name, entry.key]]),
      ];
      for (const arg of call.args) {
        if (arg.k === 'map')
          for (const entry of arg.entries)
            if (BASE_KEYS.test(entry.key)) candidates.push([entry.value, [name, entry.key]]);
      }
      if (
        candidates.some(
          ([value, names]) => value && value.k !== 'map' && this.serviceBase(this.folder.fold(value), names),
        )
      )
        this.clients.add(name);
    }
  }

  private findResponses(): void {
    for (let round = 0; round < 3; round++) {
      const before = this.responses.size;
      for (const assign of this.facts.assigns) {
        if (!assign.value) continue;
        const names = [targetName(assign.target), ...assign.names].filter((n): n is string => !!n);
        if (names.every((name) => this.responses.has(name))) continue;
        const root = rootName(assign.value);
        const answered =
          (root !== undefined && this.responses.has(root)) || this.containsServiceCall(assign.value);
        if (answered) for (const name of names) this.responses.add(name);
      }
      if (this.responses.size === before) break;
    }
  }

  private containsServiceCall(node: Node): boolean {
    for (const inner of walk([node])) {
      if (inner.k === 'func' || inner.k === 'type') return false;
      if (inner.k === 'call' && this.callKind(inner)) return true;
    }
    return false;
  }

  /** What a body literal is: by its keys, else by the call it is sent with. */
  bodyKind(map: MapLit, keys: string[] = map.entries.map((entry) => entry.key)): BodyKind | undefined {
    if (this.bodyKinds.has(map)) return this.bodyKinds.get(map);
    this.bodyKinds.set(map, undefined);
    const kind = keyKind(keys) ?? this.sentWith(map);
    this.bodyKinds.set(map, kind);
    return kind;
  }

  /** The kind of the service call a node is sent with: directly, or through the variable it is assigned to. */
  sentWith(node: Node): BodyKind | undefined {
    let depth = 0;
    for (const ancestor of ancestors(this.facts, node)) {
      if (++depth > 10 || ancestor.k === 'func' || ancestor.k === 'type') break;
      if (ancestor.k === 'call') {
        const kind = this.callKind(ancestor);
        if (kind === 'token' || kind === 'order') return kind;
      }
      if (ancestor.k === 'assign') {
        const names = [targetName(ancestor.target), ...ancestor.names].filter((n): n is string => !!n);
        for (const call of this.facts.calls) {
          const kind = this.callKind(call);
          if (kind !== 'token' && kind !== 'order') continue;
          const uses = [
            ...call.args,
            ...call.named.flatMap((e) => (e.value ? [e.value] : [])),
            ...call.block,
          ];
          if (
            uses.some((arg) =>
              [...walk([arg])].some(
                (n) =>
                  (n.k === 'id' && names.includes(n.name.replace(/^\$/, ''))) ||
                  (n.k === 'member' && names.includes(n.name)),
              ),
            )
          )
            return kind;
        }
        return undefined;
      }
    }
    return undefined;
  }

  private hasEvidence: boolean | undefined;

  /** Whether the file shows any sign of talking to the service. */
  get evidence(): boolean {
    this.hasEvidence ??=
      this.clients.size > 0 ||
      this.responses.size > 0 ||
      this.facts.calls.some((call) => this.callKind(call) !== undefined) ||
      this.facts.maps.some((map) => keyKind(map.entries.map((e) => e.key)) !== undefined) ||
      // A key of the spec's own set apart from a literal: body.put("callback_success", …).
      this.facts.strings.some((str) => {
        const part = literalPart(str);
        return part !== undefined && OWN_KEYS.has(loose(part.text));
      }) ||
      this.facts.types.some((type) => modelKind(type) !== undefined);
    return this.hasEvidence;
  }
}

function containsFunction(expr: Expr): boolean {
  return expr.k === 'other' && expr.items.some((item) => item.k === 'func');
}
