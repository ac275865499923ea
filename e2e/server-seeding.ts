// The server's own code for making accounts, as one module: e2e/fixtures.ts loads it with one
// tsImport, so the server modules these share (config, database, kysely, drivers) are loaded and
// compiled once per Playwright worker, not once per function (each tsImport call has its own
// module cache: four calls took 26 s on a loaded machine, longer than a test may take).
export { loadConfig } from '../server/src/config';
export { createDatabase } from '../server/src/db/database';
export { claimPendingInvitesForEmail } from '../server/src/modules/contacts/commands/claim-invites';
export { createUser } from '../server/src/modules/user/commands/create-user';
