import { IMAGE_LICENCES, type ImageLicence } from '@scriptorium/common/api/usermedia';
import type { TFunction } from 'i18next';

/** SPDX ids read the same in every language; the three plain states are translated. */
export function licenceLabel(licence: ImageLicence, t: TFunction<'usermedia'>): string {
  switch (licence) {
    case '':
      return t('licenceNone');
    case 'public-domain':
      return t('licencePublicDomain');
    case 'all-rights-reserved':
      return t('licenceAllRightsReserved');
    default:
      return licence;
  }
}

export const LICENCE_CHOICES: readonly ImageLicence[] = IMAGE_LICENCES;
