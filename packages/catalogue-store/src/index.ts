export {
  bundledMatcher,
  cachedMatcher,
  loadCurrentCatalogue,
  storeBundledCatalogue,
  storeCatalogue,
} from './stored-catalogue.ts';
