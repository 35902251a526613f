import type { Address, Location } from '../api/locations.js';
import { pickLocalized } from '../api/read.js';
import type { Column } from '../output/format.js';

/** Locations as the commands show them; names in the store's main language (docs/platform.md §7: keyed by locale). */

/** Location columns with the name in the store's main language (docs/platform.md §7: names are keyed by locale). */
export function locationColumnsFor(mainLanguage?: string): Column<Location>[] {
  return [
    { header: 'priority', get: (l) => l.priority, kind: 'count', priority: 2 },
    { header: 'id', get: (l) => l.id, kind: 'id' },
    { header: 'name', get: (l) => pickLocalized(l.name, mainLanguage), kind: 'text' },
    { header: 'default', get: (l) => (l.is_default ? 'yes' : ''), kind: 'id', priority: 1 },
    { header: 'pickup', get: (l) => (l.allows_pickup ? 'yes' : ''), kind: 'id', priority: 2 },
    { header: 'city', get: (l) => l.address?.city ?? '', kind: 'text', priority: 3 },
  ];
}

export function locationFields(l: Location, mainLanguage?: string): [string, unknown][] {
  const a: Partial<Address> = l.address ?? {};
  const street = [a.street, a.number, a.floor].filter(Boolean).join(' ');
  return [
    ['ID', l.id],
    ['Name', pickLocalized(l.name, mainLanguage)],
    ['Priority', l.priority],
    ['Default', l.is_default ? 'yes' : 'no'],
    ['Pickup', l.allows_pickup ? 'yes' : 'no'],
    ['Address', [street, a.locality, a.city, a.zipcode, a.province?.name || a.province?.code, a.country?.code].filter(Boolean).join(', ')],
    ['Region', [a.region?.code, a.region?.name].filter(Boolean).join(' ')],
  ];
}
