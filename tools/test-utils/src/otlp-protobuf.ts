// Decodes OTLP/HTTP protobuf trace exports (ExportTraceServiceRequest) into the same plain shape
// as their OTLP/JSON form, so a receiver can check what an exporter really put on the wire. Written
// from the field numbers of opentelemetry-proto (collector/trace/v1, trace/v1, common/v1,
// resource/v1), independently of the OpenTelemetry packages' own encoder.

/** One field as read off the wire: its number, and a varint, a fixed-width value or a byte range. */
type WireField =
  | { readonly field: number; readonly kind: 'varint'; readonly value: bigint }
  | { readonly field: number; readonly kind: 'fixed64'; readonly bytes: Buffer }
  | { readonly field: number; readonly kind: 'fixed32'; readonly bytes: Buffer }
  | { readonly field: number; readonly kind: 'bytes'; readonly bytes: Buffer };

function readVarint(buffer: Buffer, start: number): { value: bigint; next: number } {
  let value = 0n;
  let shift = 0n;
  for (let position = start; position < buffer.length; position += 1) {
    const byte = buffer[position]!;
    value |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return { value, next: position + 1 };
    shift += 7n;
  }
  throw new Error(`protobuf: a varint at byte ${start} runs past the end of the message`);
}

/** The fields of one message, in wire order; throws on a truncated message or an unknown wire type. */
export function readWireFields(buffer: Buffer): WireField[] {
  const fields: WireField[] = [];
  let position = 0;
  while (position < buffer.length) {
    const tag = readVarint(buffer, position);
    position = tag.next;
    const field = Number(tag.value >> 3n);
    const wireType = Number(tag.value & 7n);
    const take = (length: number) => {
      if (position + length > buffer.length) throw new Error(`protobuf: field ${field} runs past the end`);
      const bytes = buffer.subarray(position, position + length);
      position += length;
      return bytes;
    };
    if (wireType === 0) {
      const varint = readVarint(buffer, position);
      position = varint.next;
      fields.push({ field, kind: 'varint', value: varint.value });
    } else if (wireType === 1) fields.push({ field, kind: 'fixed64', bytes: take(8) });
    else if (wireType === 5) fields.push({ field, kind: 'fixed32', bytes: take(4) });
    else if (wireType === 2) {
      const length = readVarint(buffer, position);
      position = length.next;
      fields.push({ field, kind: 'bytes', bytes: take(Number(length.value)) });
    } else throw new Error(`protobuf: wire type ${wireType} of field ${field} is not used by OTLP`);
  }
  return fields;
}

function messages(fields: readonly WireField[], field: number): Buffer[] {
  return fields.flatMap((entry) => (entry.field === field && entry.kind === 'bytes' ? [entry.bytes] : []));
}

function text(fields: readonly WireField[], field: number): string | undefined {
  return messages(fields, field)[0]?.toString('utf8');
}

function varint(fields: readonly WireField[], field: number): bigint | undefined {
  const found = fields.find((entry) => entry.field === field && entry.kind === 'varint');
  return found?.kind === 'varint' ? found.value : undefined;
}

/** An AnyValue (common/v1) in OTLP/JSON form: string 1, bool 2, int 3, double 4, array 5, kvlist 6, bytes 7. */
function anyValue(buffer: Buffer): Record<string, unknown> {
  const fields = readWireFields(buffer);
  const [first] = fields;
  if (!first) return {};
  switch (first.field) {
    case 1:
      return { stringValue: text(fields, 1) ?? '' };
    case 2:
      return { boolValue: varint(fields, 2) === 1n };
    case 3:
      return { intValue: BigInt.asIntN(64, varint(fields, 3) ?? 0n).toString() };
    case 4:
      return { doubleValue: first.kind === 'fixed64' ? first.bytes.readDoubleLE(0) : Number.NaN };
    case 5:
      return { arrayValue: { values: messages(readWireFields(messages(fields, 5)[0]!), 1).map(anyValue) } };
    case 6:
      return { kvlistValue: { values: messages(readWireFields(messages(fields, 6)[0]!), 1).map(keyValue) } };
    default:
      return { bytesValue: messages(fields, 7)[0]?.toString('base64') ?? '' };
  }
}

/** A KeyValue: key 1, value 2. */
function keyValue(buffer: Buffer): { key: string; value: Record<string, unknown> } {
  const fields = readWireFields(buffer);
  const value = messages(fields, 2)[0];
  return { key: text(fields, 1) ?? '', value: value ? anyValue(value) : {} };
}

/** Status: message 2, code 3. */
function status(buffer: Buffer | undefined): { code: number; message: string } {
  const fields = buffer ? readWireFields(buffer) : [];
  return { code: Number(varint(fields, 3) ?? 0n), message: text(fields, 2) ?? '' };
}

/** Span: trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6, times 7/8, attributes 9, status 15. */
function span(buffer: Buffer): Record<string, unknown> {
  const fields = readWireFields(buffer);
  const hex = (field: number) => messages(fields, field)[0]?.toString('hex') ?? '';
  const nanos = (field: number) => {
    const found = fields.find((entry) => entry.field === field && entry.kind === 'fixed64');
    return found?.kind === 'fixed64' ? found.bytes.readBigUInt64LE(0).toString() : '0';
  };
  return {
    traceId: hex(1),
    spanId: hex(2),
    parentSpanId: hex(4),
    name: text(fields, 5) ?? '',
    kind: Number(varint(fields, 6) ?? 0n),
    startTimeUnixNano: nanos(7),
    endTimeUnixNano: nanos(8),
    attributes: messages(fields, 9).map(keyValue),
    status: status(messages(fields, 15)[0]),
  };
}

/**
 * An ExportTraceServiceRequest (resource_spans 1 → resource 1 with attributes 1, scope_spans 2 →
 * scope 1 with name 1, spans 2) in the shape of its OTLP/JSON encoding.
 */
export function decodeTraceExport(body: Buffer): { resourceSpans: Record<string, unknown>[] } {
  return {
    resourceSpans: messages(readWireFields(body), 1).map((resourceSpansBuffer) => {
      const resourceSpans = readWireFields(resourceSpansBuffer);
      const resource = messages(resourceSpans, 1)[0];
      return {
        resource: { attributes: resource ? messages(readWireFields(resource), 1).map(keyValue) : [] },
        scopeSpans: messages(resourceSpans, 2).map((scopeSpansBuffer) => {
          const scopeSpans = readWireFields(scopeSpansBuffer);
          const scope = messages(scopeSpans, 1)[0];
          return {
            scope: { name: scope ? (text(readWireFields(scope), 1) ?? '') : '' },
            spans: messages(scopeSpans, 2).map(span),
          };
        }),
      };
    }),
  };
}
