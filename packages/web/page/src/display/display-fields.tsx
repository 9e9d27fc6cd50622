import type { ToolDisplay } from '../api/api-types';
import { LiteralText } from './literal-text';

/** A display's labelled values (exit code, duration, bytes searched). */
export function DisplayFields({ fields }: { fields: ToolDisplay['fields'] }) {
  if (!fields || fields.length === 0) return null;
  return (
    <dl className="fields">
      {fields.map((field, index) => (
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
