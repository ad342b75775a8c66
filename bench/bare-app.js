'use strict';
// The reference point of bench/foundation.js: an otherwise empty NestJS application (same
// Nest and Express versions) with one handler returning a constant JSON.
require('reflect-metadata');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');

class ConstantController {
  constant() {
    return { apiVersion: '1.0.0', ok: true };
  }
}
Get()(ConstantController.prototype, 'constant', Object.getOwnPropertyDescriptor(ConstantController.prototype, 'constant'));
Controller('constant')(ConstantController);

class BareModule {}
Module({ controllers: [ConstantController] })(BareModule);

NestFactory.create(BareModule, { logger: false }).then((app) => app.listen(Number(process.env.PORT), '127.0.0.1'));
