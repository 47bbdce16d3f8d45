/**
 * The reference servers of `npm run bench -- serve`, one per process: a bare node:http server or
 * a minimal Express 5 app, each answering every GET and POST with the bytes in a file, as JSON.
 *
 *   tsx bench/serveTargets.ts <bare|express> <port> <bytes file>
 */
import fs from 'node:fs';
import http from 'node:http';
import express from 'express';

const [kind, portText, file] = process.argv.slice(2);
const bytes = fs.readFileSync(file!);
const port = Number(portText);

if (kind === 'bare') {
  http
    .createServer((req, res) => {
      // Drain a POST body like a real server would before answering.
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': bytes.length });
        res.end(bytes);
      });
    })
    .listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
} else {
  const app = express();
  app.use(express.json());
  app.all('/{*path}', (_req, res) => {
    res.type('application/json').send(bytes);
  });
  app.listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
}
