import { ImAccounts } from "./accounts";
import type { ImDeps } from "./core";
import { ImContacts } from "./contacts";
import { ImFiles } from "./files";
import { ImHistory } from "./history";
import { ImMucs } from "./mucs";
import { ImPins } from "./pins";
import { ImPresence } from "./presence";
import { ImReactions } from "./reactions";
import { ImReports } from "./reports";
import { ImSilent } from "./silent";
import { ImThreads } from "./threads";

/** The IM services, built once per process from the same dependencies. */
export class ImServices {
  readonly accounts: ImAccounts;
  readonly groups: ImMucs;
  readonly rooms: ImMucs;
  readonly contacts: ImContacts;
  readonly history: ImHistory;
  readonly presence: ImPresence;
  readonly reactions: ImReactions;
  readonly silent: ImSilent;
  readonly threads: ImThreads;
  readonly files: ImFiles;
  readonly pins: ImPins;
  readonly reports: ImReports;

  constructor(readonly deps: ImDeps) {
    this.accounts = new ImAccounts(deps);
    this.groups = new ImMucs(deps, "group");
    this.rooms = new ImMucs(deps, "room");
    this.contacts = new ImContacts(deps);
    this.history = new ImHistory(deps, this.groups, this.rooms);
    this.presence = new ImPresence(deps);
    this.reactions = new ImReactions(deps);
    this.silent = new ImSilent(deps);
    this.threads = new ImThreads(deps, this.groups);
    this.files = new ImFiles(deps);
    this.pins = new ImPins(deps, this.groups, this.history);
    this.reports = new ImReports(deps);
  }
}
