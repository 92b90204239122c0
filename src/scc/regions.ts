// Where SCC's Firewall Manager API lives in each region (from the vendor's API documentation).
export const SCC_REGIONS = {
  us: 'https://api.us.security.cisco.com/firewall',
  eu: 'https://api.eu.security.cisco.com/firewall',
  apj: 'https://api.apj.security.cisco.com/firewall',
  au: 'https://api.au.security.cisco.com/firewall',
  in: 'https://api.in.security.cisco.com/firewall',
  uae: 'https://api.uae.security.cisco.com/firewall',
} as const;

export type SccRegion = keyof typeof SCC_REGIONS;

export const SCC_REGION_NAMES = Object.keys(SCC_REGIONS) as SccRegion[];

export function baseUrlForRegion(region: SccRegion): string {
  return SCC_REGIONS[region];
}
