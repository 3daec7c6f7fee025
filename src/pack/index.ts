/** Pack building, above the stages: `askgraph init` (initPack) and `askgraph load` (buildStorePack). */
export { initPack, POOR_SELF_EVAL, BASE_MODEL_DIR, ZERO_SHOT_MINUTES, defaultBaseModel, readBaseModel, type BaseModel, INIT_STATE_FILE, SCHEMA_FILE, REPORT_FILE, type InitOptions, type InitPhase, type InitReporter, type InitResult } from './init';
export { buildStorePack, type StorePack, type StorePackOptions } from './store';
