export { LocationsMap, projectPoints } from './locations-map';
export { FollowerMap } from './follower-map';
export { AllLocationsMap } from './all-locations-map';
