// The ceiling: a bare node:http server answering a fixed JSON body.
import { createServer } from 'node:http';

const body = JSON.stringify({ code: 0, message: 'success', data: [] });
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
