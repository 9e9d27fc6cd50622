import { ClawsmithError } from '@clawsmith/tool-protocol';

/** A settings file that cannot be used: unreadable, not JSON, or not the documented shape. */
export class SettingsError extends ClawsmithError {
  /** The file, or `--allow`/`--ask`/`--deny` for a rule given as a flag. */
  readonly file: string;

  constructor(file: string, message: string) {
    super('invalid_settings', message);
    this.name = 'SettingsError';
    this.file = file;
  }
}
