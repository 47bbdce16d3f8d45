/**
 * Compiles the system contracts' FunC sources (development only: the chain loads the committed
 * BoCs in compiled.json). `npx tsx src/localnet/contracts/compile.ts` rewrites compiled.json;
 * test/localnet/systemContracts.test.ts checks the committed code is what the sources give.
 */
import fs from 'fs';
import path from 'path';

export const SYSTEM_CONTRACTS = ['config', 'elector'] as const;
export type SystemContractName = (typeof SYSTEM_CONTRACTS)[number];

export async function compileSystemContract(name: SystemContractName): Promise<string> {
  // A development dependency: loaded only when compiling.
  const { compileFunc } = await import('@ton-community/func-js');
  const dir = __dirname;
  const result = await compileFunc({
    targets: [`${name}.fc`],
    sources: (file: string) => fs.readFileSync(path.join(dir, file), 'utf8'),
  });
  if (result.status !== 'ok') throw new Error(`${name}.fc: ${result.message}`);
  return result.codeBoc;
}

export async function compileAll(): Promise<Record<SystemContractName, string>> {
  const out = {} as Record<SystemContractName, string>;
  for (const name of SYSTEM_CONTRACTS) out[name] = await compileSystemContract(name);
  return out;
}

if (require.main === module) {
  compileAll()
    .then((compiled) => {
      fs.writeFileSync(path.join(__dirname, 'compiled.json'), JSON.stringify(compiled, null, 2) + '\n');
      console.log('wrote compiled.json');
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
