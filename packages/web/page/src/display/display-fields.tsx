import type { ToolDisplay } from '../api/api-types';
import { LiteralText } from './literal-text';

/** Values kept for programs (the API still has them) that tell a person nothing. */
const MACHINE_FIELDS = new Set(['sha256']);

/** A display's labelled values (exit code, duration, bytes searched), without content hashes. */
export function DisplayFields({ fields }: { fields: ToolDisplay['fields'] }) {
  const shown = (fields ?? []).filter((field) => !MACHINE_FIELDS.has(field.label));
  if (shown.length === 0) return null;
  return (
    <dl className="fields">
      {shown.map((field, index) => (
        <div key={index}>
          <dt>
            <LiteralText text={field.label} limit={100} />
          </dt>
          <dd>
            <LiteralText text={field.value} limit={1_000} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
