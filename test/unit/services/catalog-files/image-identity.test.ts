import { describe, expect, it } from 'vitest';
import { missingImages } from '../../../../src/services/catalog-files/image-identity.js';
import { readCommand } from '../../../../src/services/catalog-files/commands.js';
import { cdnFileName, imageStem, imageType, storedStems } from '../../../../src/platform/images.js';

describe('image identity (docs/decisions.md)', () => {
  const cdn = (name: string) => `https://cdn.example.net/stores/1/products/${name}`;

  it('a source is known by its file name stem, which the CDN URL keeps', () => {
    expect(imageStem('https://proveedor.example.com/img/Foto%20Frente.JPG?v=2')).toBe('foto-frente');
    expect(imageStem('fotos/espalda.png')).toBe('espalda');
    expect(storedStems(cdn('foto-frente-640-0.jpg'))).toEqual(['foto-frente-640-0', 'foto-frente']);
    expect(cdnFileName('Foto Frente.JPG', 1)).toBe('foto-frente-640-1.jpg');
  });

  it('only the images the product lacks are missing; each stored image stands for one', () => {
    const wanted = [{ src: 'https://a.example/x/remera.jpg' }, { src: 'https://b.example/y/remera.jpg' }, { src: 'fotos/taza.png', file: '/tmp/fotos/taza.png' }];
    expect(missingImages(wanted, [{ src: cdn('remera-640-0.jpg') }, { src: cdn('taza-640-0.png') }])).toEqual([wanted[1]]);
    expect(missingImages(wanted, [{ src: cdn('remera-640-0.jpg') }, { src: cdn('remera-640-1.jpg') }, { src: cdn('taza-640-0.png') }])).toEqual([]);
    // A store that keeps URLs (and a file written by products export) matches exactly.
    expect(missingImages([{ src: 'https://a.example/get?id=5' }], [{ src: 'https://a.example/get?id=5' }])).toEqual([]);
    expect(missingImages([{ src: 'https://a.example/get?id=5' }], [{ src: cdn('get-640-0.jpg') }])).toEqual([]);
    expect(missingImages([{ src: 'https://a.example/otra.jpg' }], [{ src: cdn('remera-640-0.jpg') }])).toHaveLength(1);
  });

  it('types by content, never by name', () => {
    expect(imageType(Buffer.from('GIF89a......'))).toBe('gif');
    expect(imageType(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))).toBe('jpg');
    expect(imageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(imageType(Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBP'))).toBe('webp');
    expect(imageType(Buffer.from('BM6\u0000\u0000\u0000'))).toBeUndefined();
  });
});

describe('the command column (commands.ts)', () => {
  it('reads the commands case and accents aside, and the admin dialect words in its dialect', () => {
    expect(readCommand(' delete ', 'canonical')).toBe('DELETE');
    expect(readCommand('Eliminar', 'admin-es')).toBe('DELETE');
    expect(readCommand('ACTUALIZAR', 'admin-es')).toBe('UPDATE');
    expect(readCommand('excluir', 'admin-pt')).toBe('DELETE');
    expect(readCommand('Ignorar', 'admin-pt')).toBe('IGNORE');
    expect(readCommand('NEW', 'admin-pt')).toBe('NEW');
    expect(readCommand('ELIMINAR', 'canonical')).toEqual({ error: expect.stringContaining('"ELIMINAR" is not a command') });
    expect(readCommand('BORRA', 'admin-es')).toEqual({ error: expect.stringContaining('(or NUEVO, FUSIONAR') });
  });
});
