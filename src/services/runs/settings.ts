import { profileSettings, readConfig, selectProfileName, setProfileSetting } from '../../auth/config.js';
import { UsageError } from '../../errors.js';
import { closestMatches, orList } from '../../util/suggest.js';
import { API_VERSIONS } from '../../platform/api-versions.js';

/**
 * `store config`: a profile's defaults, like `gh config` (docs/ledger.md "Profile settings"). The brakes of
 * unattended runs and the API version take their defaults from here; a flag on the command line wins over a setting.
 */

interface Setting {
  /** The flag the setting is the default of. */
  flag: string;
  description: string;
  /** What a value looks like, and the sentence of one that does not. */
  pattern: RegExp;
  form: string;
}

const COUNT_OR_SHARE = /^(\d{1,9}|\d{1,3}(\.\d{1,2})?%)$/;

export const SETTINGS: Record<string, Setting> = {
  'max-changes': { flag: '--max-changes', description: 'the most changes a run may make', pattern: COUNT_OR_SHARE, form: 'N or P% (such as 500 or 10%)' },
  'max-price-change': { flag: '--max-price-change', description: 'the most any one price may move', pattern: /^\d{1,4}(\.\d{1,2})?%$/, form: 'P% (such as 50%)' },
  'max-zero-stock': { flag: '--max-zero-stock', description: 'the most variants a run may set to stock 0', pattern: COUNT_OR_SHARE, form: 'N or P% (such as 20 or 5%)' },
  'max-deletes': { flag: '--max-deletes', description: 'the most records a run may delete', pattern: /^\d{1,9}$/, form: 'N (such as 0)' },
  // docs/platform.md §12: the version every request of the profile names (--api-version wins).
  'api-version': { flag: '--api-version', description: 'the platform API version requests name', pattern: new RegExp(`^(${API_VERSIONS.join('|')})$`), form: API_VERSIONS.join(' or ') },
};

/** The setting a name stands for; an unknown name is one sentence naming the known ones (and the closest). */
export function checkSettingName(name: string): Setting {
  const setting = SETTINGS[name];
  if (setting) return setting;
  const near = closestMatches(name, Object.keys(SETTINGS), { maxEdits: 3 });
  throw new UsageError(`Unknown setting "${name}"${near.length ? ` (did you mean ${orList(near)}?)` : ''}; the settings are: ${Object.keys(SETTINGS).join(', ')}.`);
}

/** A value checked against its setting's form before anything is written. */
export function checkSettingValue(name: string, value: string): string {
  const setting = checkSettingName(name);
  const text = value.trim();
  if (!setting.pattern.test(text)) throw new UsageError(`${name} "${value}" is not ${setting.form}.`);
  return text;
}

/** The profile the settings are of: `--profile`, else STORE_PROFILE, else the default (or only) one, else "default". */
export async function settingsProfile(profile: string | undefined): Promise<string> {
  return selectProfileName(await readConfig(), { profile }) ?? 'default';
}

export async function setSetting(profile: string, name: string, value: string): Promise<void> {
  await setProfileSetting(profile, name, checkSettingValue(name, value));
}

export async function unsetSetting(profile: string, name: string): Promise<void> {
  checkSettingName(name);
  await setProfileSetting(profile, name, undefined);
}

export async function getSetting(profile: string, name: string): Promise<string | undefined> {
  checkSettingName(name);
  return (await profileSettings(profile))[name];
}

/** Every known setting of the profile, set or not, in the table's order. */
export async function listSettings(profile: string): Promise<{ name: string; value: string | null; flag: string; description: string }[]> {
  const values = await profileSettings(profile);
  return Object.entries(SETTINGS).map(([name, s]) => ({ name, value: values[name] ?? null, flag: s.flag, description: s.description }));
}
