export {
  bundledMatcher,
  cachedMatcher,
  loadCurrentCatalogue,
  recentCatalogue,
  storeBundledCatalogue,
  storeCatalogue,
} from './stored-catalogue.ts';
