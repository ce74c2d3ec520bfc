"""The machinery that runs claims: contract, context, registry, runner, executors, mapper,
checkpoints, files.  Imports no claim and no kit module (the registry loads claims by name)."""
