import { useState } from 'react';
import { getJson, sessionPath } from '../api/api-client';
import type { FileDiff, ManifestFile } from '../api/api-types';
import { ErrorNotice } from '../app/error-notice';
import { DiffLines } from '../display/diff-lines';
import { LiteralText } from '../display/literal-text';

/** One changed file of a checkpoint; its diff is requested only when the row is first expanded. */
export function FileDiffRow({ sessionId, turnId, file }: { sessionId: string; turnId: string; file: ManifestFile }) {
  const [open, setOpen] = useState(false);
  const [diff, setDiff] = useState<FileDiff>();
  const [error, setError] = useState<unknown>();
  const toggle = () => {
    const opening = !open;
    setOpen(opening);
    if (opening && diff === undefined)
      getJson<FileDiff>(
        sessionPath(sessionId, `/turns/${encodeURIComponent(turnId)}/diff?path=${encodeURIComponent(file.path)}`),
      ).then(setDiff, setError);
  };
  return (
    <li className="file-row">
      <button type="button" className="file-toggle" aria-expanded={open} onClick={toggle}>
        <span className="disclosure" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>{' '}
        <span className={`change change-${file.change}`}>{file.change}</span>{' '}
        <LiteralText text={file.path} limit={500} /> <span className="added-count">+{file.linesAdded ?? 0}</span>{' '}
        <span className="removed-count">−{file.linesRemoved ?? 0}</span>
      </button>
      {open && error !== undefined && <ErrorNotice error={error} />}
      {open &&
        diff &&
        (diff.binary ? <p className="notice">Binary file: no text diff.</p> : <DiffLines diff={diff.unifiedDiff} />)}
      {open && diff?.diffTruncated && <p className="omitted">The diff was cut at 64 KiB.</p>}
      {open && !diff && error === undefined && <p className="loading">Loading the diff…</p>}
    </li>
  );
}
