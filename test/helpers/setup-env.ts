// Before each test file's modules load: quiet handler logs (a test that reads logs raises the level itself).
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_DEV = 'false';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
