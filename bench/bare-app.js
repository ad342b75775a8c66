'use strict';
// The reference point of bench/foundation.js: an otherwise empty NestJS application (same
// Nest and Express versions) with handlers returning a constant JSON: /constant a tiny one,
// /same-body the document read from BARE_SAME_BODY (a file), returned as an object as a
// NestJS handler returns one (Nest serializes it).
require('reflect-metadata');
const { readFileSync } = require('node:fs');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');

const SAME_BODY = process.env.BARE_SAME_BODY
  ? JSON.parse(readFileSync(process.env.BARE_SAME_BODY, 'utf8'))
  : { absent: true };

class ConstantController {
  constant() {
    return { apiVersion: '1.0.0', ok: true };
  }

  sameBody() {
    return SAME_BODY;
  }
}
Get('constant')(
  ConstantController.prototype,
  'constant',
  Object.getOwnPropertyDescriptor(ConstantController.prototype, 'constant'),
);
Get('same-body')(
  ConstantController.prototype,
  'sameBody',
  Object.getOwnPropertyDescriptor(ConstantController.prototype, 'sameBody'),
);
Controller()(ConstantController);

class BareModule {}
Module({ controllers: [ConstantController] })(BareModule);

NestFactory.create(BareModule, { logger: false }).then((app) => app.listen(Number(process.env.PORT), '127.0.0.1'));
