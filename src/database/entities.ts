import { CompanyEntity } from '../dataset/company.entity';
import { ProbeEntity } from '../status/probe.entity';
import { RegisterStateEntity } from '../status/register-state.entity';
import { RegisterStatusTransitionEntity } from '../status/register-status-transition.entity';

export const ENTITIES = [ProbeEntity, RegisterStateEntity, RegisterStatusTransitionEntity, CompanyEntity];
