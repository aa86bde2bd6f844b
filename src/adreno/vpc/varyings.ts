/**
 * VPC (seed 004 "VPC"): the VS outputs as VPC locations. SP_VS_OUT[i].REG lists output registers
 * in pairs (A_REGID / A_COMPMASK, B_REGID / B_COMPMASK; SP_VS_PRIMITIVE_CNTL OUT counts them),
 * SP_VS_VPC_DST[i].REG gives each output's first VPC location (OUTLOC0..3); component c of an
 * output goes to location OUTLOC + c. VPC_VS_PACK POSITIONLOC says where the position is,
 * STRIDE_IN_VPC how many locations a vertex carries; VPC_VAR[i].DISABLE masks locations the FS
 * does not read (a set bit disables the location).
 */

export interface VsOutput {
  readonly regid: number;
  readonly compmask: number;
  readonly loc: number;
}

/** Locations of the VPC (128 components: VPC_VAR[0..3].DISABLE are 4 x 32 bits). */
export const VPC_LOCATIONS = 128;

/** Pair lists from SP_VS_OUT[i].REG (A then B) and SP_VS_VPC_DST[i].REG (four OUTLOCs a register). */
export function vsOutputs(count: number, outReg: (i: number) => { a: [number, number]; b: [number, number] }, dstReg: (i: number) => number): VsOutput[] {
  const out: VsOutput[] = [];
  for (let k = 0; k < count; k++) {
    const r = outReg(k >> 1);
    const [regid, compmask] = k & 1 ? r.b : r.a;
    const loc = (dstReg(k >> 2) >>> (8 * (k & 3))) & 0xff;
    out.push({ regid, compmask, loc });
  }
  return out;
}

/** The register components to read from the VS (one per enabled output component), in order. */
export function outputComponents(outs: readonly VsOutput[]): number[] {
  const comps: number[] = [];
  for (const o of outs) for (let c = 0; c < 4; c++) if (o.compmask & (1 << c)) comps.push(o.regid + c);
  return comps;
}

/** Pack one vertex's output dwords (as `outputComponents` ordered them) into VPC locations (floats). */
export function packVertex(outs: readonly VsOutput[], dwords: Uint32Array): Float32Array {
  const vpc = new Float32Array(VPC_LOCATIONS);
  const bits = new Uint32Array(vpc.buffer);
  let k = 0;
  for (const o of outs)
    for (let c = 0; c < 4; c++) {
      if (!(o.compmask & (1 << c))) continue;
      const loc = o.loc + c;
      if (loc < VPC_LOCATIONS) bits[loc] = dwords[k]!;
      k++;
    }
  return vpc;
}
